#version 330 core
// One triangle that covers the viewport; v_uv runs from (0,0) at the top left
// to (1,1) at the bottom right, the way photos and the patch grid are indexed.
out vec2 v_uv;

void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // (0,0) (2,0) (0,2)
    v_uv = vec2(p.x, 1.0 - p.y);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
