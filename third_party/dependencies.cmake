# Locates the Debian packages vitscope builds against. Only CMake glue lives
# in third_party/: no copied sources.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# libstb-dev ships stb_image and stb_image_write compiled into libstb.
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
add_library(vitscope::stb ALIAS PkgConfig::STB)

# The photo decoders beside stb_image, the libraries Debian's Pillow links:
# libjpeg-turbo (libjpeg62-turbo-dev) for JPEG, libwebp with its demuxer
# (libwebp-dev) for WebP, and libexif (libexif-dev) for EXIF orientation.
pkg_check_modules(JPEG REQUIRED IMPORTED_TARGET libjpeg)
pkg_check_modules(WEBP REQUIRED IMPORTED_TARGET libwebp libwebpdemux)
pkg_check_modules(EXIF REQUIRED IMPORTED_TARGET libexif)
add_library(vitscope_photo_decoders INTERFACE)
target_link_libraries(vitscope_photo_decoders INTERFACE PkgConfig::JPEG PkgConfig::WEBP PkgConfig::EXIF)
add_library(vitscope::photo_decoders ALIAS vitscope_photo_decoders)

# libcurl (libcurl4-openssl-dev): the window's File > Get a model… downloads
# (session/model_download.cpp); https from the hub, file:// and http:// mirrors.
pkg_check_modules(CURL REQUIRED IMPORTED_TARGET libcurl)
add_library(vitscope::curl ALIAS PkgConfig::CURL)
# OpenSSL's libcrypto (libssl-dev): base64 for the photos lesson files embed.
pkg_check_modules(CRYPTO REQUIRED IMPORTED_TARGET libcrypto)
add_library(vitscope::crypto ALIAS PkgConfig::CRYPTO)

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
  # giflib (libgif-dev): the animated sweeps (`vitscope sweep`).
  pkg_check_modules(GIF REQUIRED IMPORTED_TARGET libgif)
  # libimagequant (libimagequant-dev): the GIF frames' 256-colour palettes;
  # libwebpmux (libwebp-dev): animated WebP sweeps.
  pkg_check_modules(IMAGEQUANT REQUIRED IMPORTED_TARGET imagequant)
  pkg_check_modules(WEBPMUX REQUIRED IMPORTED_TARGET libwebpmux libwebp)
  add_library(vitscope_animation INTERFACE)
  target_link_libraries(vitscope_animation INTERFACE PkgConfig::GIF PkgConfig::IMAGEQUANT PkgConfig::WEBPMUX)
  add_library(vitscope::animation ALIAS vitscope_animation)
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
