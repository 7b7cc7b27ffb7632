// One include, named by the build (VITSCOPE_PROBE_HEADER), compiled as part of
// one layer's or room's target (tests/CMakeLists.txt, the include probes): an
// upward include must fail for that include alone, and the controls beside
// them (a header the target may reach) must compile.
#include VITSCOPE_PROBE_HEADER

int vitscope_include_probe() { return 0; }
