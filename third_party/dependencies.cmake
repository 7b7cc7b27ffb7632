# Locates the Debian packages vitscope builds against. Only CMake glue lives
# in third_party/: no copied sources.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# libstb-dev ships stb_image and stb_image_write compiled into libstb.
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
add_library(vitscope::stb ALIAS PkgConfig::STB)

# libzip-dev: the zip archive of a torch.save checkpoint (pytorch_model.bin).
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
add_library(vitscope::zip ALIAS PkgConfig::LIBZIP)

if(VITSCOPE_GUI)
  find_package(glfw3 3.3 REQUIRED)
  pkg_check_modules(EPOXY REQUIRED IMPORTED_TARGET epoxy)
  find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
  add_library(vitscope_gl INTERFACE)
  find_package(ZLIB REQUIRED)  # CRCs of the PNG text chunks
  target_link_libraries(vitscope_gl INTERFACE glfw PkgConfig::EPOXY OpenGL::OpenGL OpenGL::EGL ZLIB::ZLIB)
  add_library(vitscope::gl ALIAS vitscope_gl)
  # libimgui-dev 1.86 ships the core and its GLFW + OpenGL3 backends in libimgui.a.
  pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
  add_library(vitscope_imgui INTERFACE)
  target_link_libraries(vitscope_imgui INTERFACE PkgConfig::IMGUI glfw vitscope::gl)
  add_library(vitscope::imgui ALIAS vitscope_imgui)
endif()

if(VITSCOPE_TESTS)
  find_package(GTest REQUIRED)
endif()
if(VITSCOPE_BENCH)
  find_package(benchmark REQUIRED)
endif()
