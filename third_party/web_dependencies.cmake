# The browser build's dependencies (emscripten, `cmake --preset wasm`): the
# same libraries, at the same versions, as the desktop build links from
# Debian's binary packages, compiled here from Debian's source packages
# (scripts/web_sources.sh unpacks them into VITSCOPE_DEBIAN_SOURCES). The
# header-only ones (Eigen, nlohmann-json, stb) come from the machine's Debian
# packages. GLFW and OpenGL ES are emscripten's own (-sUSE_GLFW=3, WebGL 2),
# nothing is downloaded: emscripten's cache is frozen (Debian's default).
# Only CMake glue lives here: which files of each source package to compile.
include(ExternalProject)
set(VITSCOPE_DEBIAN_SOURCES "${CMAKE_SOURCE_DIR}/.cache/debian-sources" CACHE PATH
    "Debian source packages for the browser build (scripts/web_sources.sh)")
function(vitscope_debian_source var package)
  file(GLOB found LIST_DIRECTORIES true "${VITSCOPE_DEBIAN_SOURCES}/${package}-[0-9]*")
  if(NOT found)
    message(FATAL_ERROR "no Debian source of ${package} in ${VITSCOPE_DEBIAN_SOURCES}: run scripts/web_sources.sh")
  endif()
  list(GET found 0 dir)
  set(${var} ${dir} PARENT_SCOPE)
endfunction()

# Header-only packages, seen through links to their folders alone (the
# machine's /usr/include as a whole would shadow emscripten's C library).
set(host_headers ${CMAKE_BINARY_DIR}/host_headers)
foreach(link eigen3/Eigen:Eigen eigen3/unsupported:unsupported nlohmann:nlohmann stb:stb)
  string(REPLACE ":" ";" parts ${link})
  list(GET parts 0 from)
  list(GET parts 1 to)
  file(MAKE_DIRECTORY ${host_headers})
  file(CREATE_LINK /usr/include/${from} ${host_headers}/${to} SYMBOLIC)
endforeach()
add_library(vitscope_host_headers INTERFACE)
target_include_directories(vitscope_host_headers SYSTEM INTERFACE ${host_headers})
add_library(Eigen3::Eigen ALIAS vitscope_host_headers)
add_library(nlohmann_json::nlohmann_json ALIAS vitscope_host_headers)
find_package(Threads REQUIRED)

# stb: the parts libstb-dev compiles into libstb, from the same headers.
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/stb_implementation.c CONTENT
     "// stb_image, stb_image_write and stb_truetype compiled once, as Debian's libstb has them.\n#define STB_IMAGE_IMPLEMENTATION\n#define STB_IMAGE_WRITE_IMPLEMENTATION\n#define STB_TRUETYPE_IMPLEMENTATION\n#include <stb/stb_image.h>\n#include <stb/stb_image_write.h>\n#include <stb/stb_truetype.h>\n")
add_library(vitscope_stb STATIC ${CMAKE_BINARY_DIR}/stb_implementation.c)
target_link_libraries(vitscope_stb PUBLIC vitscope_host_headers)
add_library(vitscope::stb ALIAS vitscope_stb)

# zlib: its own CMake build renames the source tree's zconf.h; compiled here instead.
vitscope_debian_source(zlib_src zlib)
configure_file(${zlib_src}/zconf.h.in ${CMAKE_BINARY_DIR}/zlib_config/zconf.h COPYONLY)
add_library(vitscope_zlib STATIC ${zlib_src}/adler32.c ${zlib_src}/compress.c ${zlib_src}/crc32.c ${zlib_src}/deflate.c
                                 ${zlib_src}/gzclose.c ${zlib_src}/gzlib.c ${zlib_src}/gzread.c ${zlib_src}/gzwrite.c
                                 ${zlib_src}/inflate.c ${zlib_src}/infback.c ${zlib_src}/inftrees.c ${zlib_src}/inffast.c
                                 ${zlib_src}/trees.c ${zlib_src}/uncompr.c ${zlib_src}/zutil.c)
target_include_directories(vitscope_zlib SYSTEM PUBLIC ${CMAKE_BINARY_DIR}/zlib_config ${zlib_src})
target_compile_definitions(vitscope_zlib PRIVATE HAVE_UNISTD_H)
target_compile_options(vitscope_zlib PRIVATE -w)
set_target_properties(vitscope_zlib PROPERTIES UNITY_BUILD OFF)

# Libraries with a CMake build of their own: configured by it, with the
# emscripten toolchain and the build's flags; only their libraries built.
set(web_cmake_args -DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE} -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_C_FLAGS=${VITSCOPE_WEB_COMPILE_FLAGS} -I${CMAKE_BINARY_DIR}/zlib_config" -DBUILD_SHARED_LIBS=OFF
    -DCMAKE_POLICY_DEFAULT_CMP0074=NEW)
# CMake's check_type_size reads sizes out of the compiled object, which it
# cannot with emscripten's: wasm32's sizes are given (HAVE_X and X, as it caches them).
foreach(pair SIZE_T:4 INT8_T_LIBZIP:1 UINT8_T_LIBZIP:1 INT16_T_LIBZIP:2 UINT16_T_LIBZIP:2 INT32_T_LIBZIP:4
             UINT32_T_LIBZIP:4 INT64_T_LIBZIP:8 UINT64_T_LIBZIP:8 SHORT_LIBZIP:2 INT_LIBZIP:4 LONG_LIBZIP:4
             LONG_LONG_LIBZIP:8 SIZEOF_OFF_T:8 SIZEOF_SIZE_T:4)
  string(REPLACE ":" ";" parts ${pair})
  list(GET parts 0 var)
  list(GET parts 1 size)
  list(APPEND web_cmake_args -DHAVE_${var}=TRUE -D${var}=${size})
endforeach()
foreach(absent __INT8_LIBZIP __INT16_LIBZIP __INT32_LIBZIP __INT64_LIBZIP)
  list(APPEND web_cmake_args -DHAVE_${absent}=FALSE -D${absent}=)
endforeach()
# ARGN: OPTIONS (CMake's), TARGETS to build, and in its build folder (<B>) or source (<S>): LIBS, INCLUDES.
function(vitscope_web_library name package)
  cmake_parse_arguments(W "" "" "OPTIONS;TARGETS;LIBS;INCLUDES;DEPENDS" ${ARGN})
  vitscope_debian_source(src ${package})
  set(build ${CMAKE_BINARY_DIR}/debian_build/${name})
  set(build_targets "")
  foreach(t ${W_TARGETS})
    list(APPEND build_targets --target ${t})
  endforeach()
  list(TRANSFORM W_LIBS PREPEND ${build}/)
  list(TRANSFORM W_INCLUDES REPLACE "^<B>" ${build})
  list(TRANSFORM W_INCLUDES REPLACE "^<S>" ${src})
  # emscripten's JavaScript tools find their node modules through NODE_PATH.
  ExternalProject_Add(debian_${name} SOURCE_DIR ${src} BINARY_DIR ${build}
                      PREFIX ${CMAKE_BINARY_DIR}/debian_build/${name}.stamps
                      CMAKE_ARGS ${web_cmake_args} ${W_OPTIONS}
                      BUILD_COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs
                                    ${CMAKE_COMMAND} --build ${build} ${build_targets}
                      INSTALL_COMMAND "" BUILD_BYPRODUCTS ${W_LIBS} DEPENDS ${W_DEPENDS}
                      UPDATE_COMMAND "" PATCH_COMMAND "")
  add_library(vitscope_web_${name} INTERFACE)
  target_include_directories(vitscope_web_${name} SYSTEM INTERFACE ${W_INCLUDES})
  target_link_libraries(vitscope_web_${name} INTERFACE ${W_LIBS})
  add_dependencies(vitscope_web_${name} debian_${name})
endfunction()


# libjpeg-turbo: its libjpeg (8-bit samples, arithmetic coding, no SIMD: there is none for
# WebAssembly), its configure headers written from their templates as its CMake build does.
function(vitscope_web_jpeg_library)  # a function: its template variables stay in it
  vitscope_debian_source(jpeg_src libjpeg-turbo)
  set(jpeg_config ${CMAKE_BINARY_DIR}/libjpeg_config)
  set(JPEG_LIB_VERSION 62)
  set(VERSION 2.1.5)
  set(LIBJPEG_TURBO_VERSION_NUMBER 2001005)
  set(C_ARITH_CODING_SUPPORTED 1)
  set(D_ARITH_CODING_SUPPORTED 1)
  set(MEM_SRCDST_SUPPORTED 1)
  set(BITS_IN_JSAMPLE 8)
  set(BUILD vitscope)
  set(INLINE "__inline__ __attribute__((always_inline))")
  set(THREAD_LOCAL "")
  set(CMAKE_PROJECT_NAME libjpeg-turbo)
  set(SIZE_T 4)
  set(COPYRIGHT_YEAR "1991-2023")
  foreach(header jconfig jconfigint jversion)
    configure_file(${jpeg_src}/${header}.h.in ${jpeg_config}/${header}.h)
  endforeach()
  set(jpeg_names jcapimin jcapistd jccoefct jccolor jcdctmgr jchuff jcicc jcinit jcmainct jcmarker jcmaster jcomapi
                 jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst jdatasrc jdcoefct jdcolor jddctmgr
                 jdhuff jdicc jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct jdsample jdtrans jerror
                 jfdctflt jfdctfst jfdctint jidctflt jidctfst jidctint jidctred jquant1 jquant2 jutils jmemmgr jmemnobs
                 jaricom jcarith jdarith jsimd_none)
  list(TRANSFORM jpeg_names PREPEND ${jpeg_src}/ OUTPUT_VARIABLE jpeg_sources)
  list(TRANSFORM jpeg_sources APPEND .c)
  add_library(vitscope_web_jpeg STATIC ${jpeg_sources})
  target_include_directories(vitscope_web_jpeg SYSTEM PUBLIC ${jpeg_config} ${jpeg_src})
  target_compile_options(vitscope_web_jpeg PRIVATE -w)
  set_target_properties(vitscope_web_jpeg PROPERTIES UNITY_BUILD OFF)
endfunction()
vitscope_web_jpeg_library()

# libwebp: decoder, encoder (with its sharp YUV conversion), demux and mux, without threads and without the
# files of other machines' SIMD (NEON, MIPS, MSA, SSE), which compile to nothing here.
vitscope_debian_source(webp_src libwebp)
file(GLOB webp_sources ${webp_src}/src/dec/*.c ${webp_src}/src/dsp/*.c ${webp_src}/src/enc/*.c
     ${webp_src}/src/utils/*.c ${webp_src}/src/demux/*.c ${webp_src}/src/mux/*.c ${webp_src}/sharpyuv/*.c)
list(FILTER webp_sources EXCLUDE REGEX "_(neon|mips32|mips_dsp_r2|msa|sse2|sse41)\\.c$")
add_library(vitscope_web_webp STATIC ${webp_sources})
target_include_directories(vitscope_web_webp SYSTEM PUBLIC ${webp_src}/src PRIVATE ${webp_src})
target_compile_options(vitscope_web_webp PRIVATE -w)
set_target_properties(vitscope_web_webp PROPERTIES UNITY_BUILD OFF)

# libzip: configured by its own CMake build (its header and error strings are generated).
vitscope_web_library(zip libzip
                     OPTIONS -DENABLE_COMMONCRYPTO=OFF -DENABLE_GNUTLS=OFF -DENABLE_MBEDTLS=OFF -DENABLE_OPENSSL=OFF
                             -DENABLE_WINDOWS_CRYPTO=OFF -DENABLE_BZIP2=OFF -DENABLE_LZMA=OFF -DBUILD_TOOLS=OFF
                             -DBUILD_REGRESS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOC=OFF
                             -DZLIB_LIBRARY=$<TARGET_FILE:vitscope_zlib> -DZLIB_INCLUDE_DIR=${zlib_src}
                     TARGETS zip LIBS lib/libzip.a INCLUDES <S>/lib <B> DEPENDS vitscope_zlib)
target_link_libraries(vitscope_web_zip INTERFACE vitscope_zlib)
add_library(vitscope::zip ALIAS vitscope_web_zip)

# Libraries built with autotools or a plain Makefile: their sources listed here.
vitscope_debian_source(exif_src libexif)
file(GLOB exif_sources ${exif_src}/libexif/*.c ${exif_src}/libexif/*/*.c)
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/libexif_config/config.h CONTENT
     "/* libexif's configure results for emscripten: no translations. */\n#define GETTEXT_PACKAGE \"libexif-12\"\n#define HAVE_LOCALTIME_R 1\n")
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/libexif_config/libexif/_stdint.h CONTENT
     "/* What libexif's configure writes where <stdint.h> has every type. */\n#include <stdint.h>\n")
add_library(vitscope_exif STATIC ${exif_sources})
target_include_directories(vitscope_exif SYSTEM PUBLIC ${exif_src} ${CMAKE_BINARY_DIR}/libexif_config)
set_target_properties(vitscope_exif PROPERTIES UNITY_BUILD OFF C_VISIBILITY_PRESET default)
target_compile_options(vitscope_exif PRIVATE -w)

add_library(vitscope_photo_decoders INTERFACE)
target_link_libraries(vitscope_photo_decoders INTERFACE vitscope_web_jpeg vitscope_web_webp vitscope_exif)
add_library(vitscope::photo_decoders ALIAS vitscope_photo_decoders)

if(VITSCOPE_GUI)
  vitscope_debian_source(gif_src giflib)
  add_library(vitscope_gif STATIC ${gif_src}/dgif_lib.c ${gif_src}/egif_lib.c ${gif_src}/gifalloc.c ${gif_src}/gif_err.c
                                  ${gif_src}/gif_hash.c ${gif_src}/openbsd-reallocarray.c ${gif_src}/quantize.c)
  target_include_directories(vitscope_gif SYSTEM PUBLIC ${gif_src})
  vitscope_debian_source(imagequant_src libimagequant)
  add_library(vitscope_imagequant STATIC ${imagequant_src}/libimagequant.c ${imagequant_src}/pam.c
                                         ${imagequant_src}/mediancut.c ${imagequant_src}/blur.c
                                         ${imagequant_src}/mempool.c ${imagequant_src}/kmeans.c ${imagequant_src}/nearest.c)
  target_include_directories(vitscope_imagequant SYSTEM PUBLIC ${imagequant_src})
  set_target_properties(vitscope_gif vitscope_imagequant PROPERTIES UNITY_BUILD OFF)
  target_compile_options(vitscope_gif PRIVATE -w)
  target_compile_options(vitscope_imagequant PRIVATE -w)
  add_library(vitscope_animation INTERFACE)
  target_link_libraries(vitscope_animation INTERFACE vitscope_gif vitscope_imagequant vitscope_web_webp)
  add_library(vitscope::animation ALIAS vitscope_animation)

  # OpenGL ES 3.0 on WebGL 2 and GLFW, both emscripten's; zlib for the PNG chunks' CRCs.
  add_library(vitscope_gl INTERFACE)
  target_link_libraries(vitscope_gl INTERFACE vitscope_zlib)
  target_link_options(vitscope_gl INTERFACE -sUSE_GLFW=3 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2)
  add_library(vitscope::gl ALIAS vitscope_gl)

  # Dear ImGui: its core, std::string inputs and the GLFW and OpenGL 3 backends, as libimgui-dev has them.
  vitscope_debian_source(imgui_src imgui)
  add_library(vitscope_imgui_core STATIC
              ${imgui_src}/imgui.cpp ${imgui_src}/imgui_draw.cpp ${imgui_src}/imgui_tables.cpp
              ${imgui_src}/imgui_widgets.cpp ${imgui_src}/misc/cpp/imgui_stdlib.cpp
              ${imgui_src}/backends/imgui_impl_glfw.cpp ${imgui_src}/backends/imgui_impl_opengl3.cpp)
  target_include_directories(vitscope_imgui_core SYSTEM PUBLIC ${imgui_src} ${imgui_src}/misc/cpp)
  target_compile_options(vitscope_imgui_core PRIVATE -w -sUSE_GLFW=3)
  set_target_properties(vitscope_imgui_core PROPERTIES UNITY_BUILD OFF)
  add_library(vitscope_imgui INTERFACE)
  target_link_libraries(vitscope_imgui INTERFACE vitscope_imgui_core vitscope::gl)
  add_library(vitscope::imgui ALIAS vitscope_imgui)
endif()
