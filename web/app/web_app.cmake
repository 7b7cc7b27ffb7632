# The browser build's folder (VITSCOPE_WEB_OUT, build-wasm/vitscope-web by
# default; docs/browser.md): the explorer linked for WebAssembly with its data
# package, this folder's page and script, and the default model's files.
# The data package holds share/vitscope as `cmake --install` lays it out
# (vit::installed_share_dir finds it there) and the fonts at their Debian paths.
set(VITSCOPE_WEB_OUT ${CMAKE_BINARY_DIR}/vitscope-web CACHE PATH "The browser build's folder")
if(VITSCOPE_WEB_THREADS)
  set(web_program vitscope)
else()
  set(web_program vitscope-single)  # beside the threaded one, for pages served without COOP/COEP
endif()
set_target_properties(vitscope PROPERTIES OUTPUT_NAME ${web_program} SUFFIX .js
                                          RUNTIME_OUTPUT_DIRECTORY ${VITSCOPE_WEB_OUT})
# emscripten's JavaScript tools find their node modules (acorn) through NODE_PATH.
set_property(TARGET vitscope PROPERTY RULE_LAUNCH_LINK "${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs")

set(share /share/vitscope)
set(packed shaders@${share}/shaders assets/labels@${share}/labels assets/tours@${share}/tours
           assets/exercises@${share}/exercises assets/models.json@${share}/models.json
           assets/LICENSES.md@${share}/photos/LICENSES.md web/lesson@${share}/web/lesson)
file(GLOB web_photos RELATIVE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/assets/*.jpg ${CMAKE_SOURCE_DIR}/assets/*.png)
foreach(photo ${web_photos})
  get_filename_component(name ${photo} NAME)
  list(APPEND packed ${photo}@${share}/photos/${name})
endforeach()
set(web_link_options "")
foreach(entry ${packed})
  list(APPEND web_link_options "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/${entry}")
endforeach()
foreach(font DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf)
  set(path /usr/share/fonts/truetype/dejavu/${font})
  list(APPEND web_link_options "SHELL:--preload-file ${path}@${path}")
endforeach()
list(APPEND web_link_options
     -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=268435456 -sMAXIMUM_MEMORY=4294967296
     -sINVOKE_RUN=0 -sFORCE_FILESYSTEM=1 -sENVIRONMENT=web,worker -lidbfs.js
     "-sEXPORTED_RUNTIME_METHODS=['callMain','ccall','FS','UTF8ToString']"
     "SHELL:--pre-js ${CMAKE_SOURCE_DIR}/web/app/module_pre.js"
     # A call wasm-ld cannot match to its function becomes a trap at run time: refused here instead.
     -Wl,--fatal-warnings)
if(VITSCOPE_WEB_THREADS)
  # Workers made at start: the model's thread, the kernels' pool (one per core
  # but this one) and the window's background jobs never wait for one.
  list(APPEND web_link_options "-sPTHREAD_POOL_SIZE=Math.min(navigator.hardwareConcurrency,16)+4"
       -sDEFAULT_PTHREAD_STACK_SIZE=8388608)
endif()
target_link_options(vitscope PRIVATE ${web_link_options})
target_link_libraries(vitscope PRIVATE vitscope::zip)  # a saved folder downloads as one .zip (web_page_hooks.cpp)
set_property(TARGET vitscope APPEND PROPERTY LINK_DEPENDS ${CMAKE_SOURCE_DIR}/web/app/module_pre.js)

# builds.json: the programs this folder has (the page picks one of them).
set(built_programs "\"${web_program}.js\"")
foreach(other vitscope vitscope-single)  # the other preset's, built into the same folder before
  if(NOT other STREQUAL web_program AND EXISTS ${VITSCOPE_WEB_OUT}/${other}.js)
    list(APPEND built_programs "\"${other}.js\"")
  endif()
endforeach()
string(JOIN ", " programs_json ${built_programs})
file(CONFIGURE OUTPUT ${VITSCOPE_WEB_OUT}/builds.json CONTENT "{\"programs\": [${programs_json}]}\n")

# The page, and the default model from the mirror (fetched once by the page, then kept in its cache).
add_custom_command(TARGET vitscope POST_BUILD
                   COMMAND ${CMAKE_COMMAND} -E copy_if_different ${CMAKE_SOURCE_DIR}/web/app/index.html
                           ${CMAKE_SOURCE_DIR}/web/app/vitscope_page.js ${CMAKE_SOURCE_DIR}/web/app/vitscope_page.css
                           ${VITSCOPE_WEB_OUT}/)
set(web_model ${VITSCOPE_MODEL_MIRROR_DIR}/vit_tiny_patch16_224.augreg_in21k_ft_in1k)
if(EXISTS ${web_model}/model.safetensors)
  add_custom_command(TARGET vitscope POST_BUILD
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${VITSCOPE_WEB_OUT}/models/vit_tiny_patch16_224.augreg_in21k_ft_in1k
                     COMMAND ${CMAKE_COMMAND} -E copy_if_different ${web_model}/config.json ${web_model}/model.safetensors
                             ${VITSCOPE_WEB_OUT}/models/vit_tiny_patch16_224.augreg_in21k_ft_in1k/)
else()
  message(WARNING "no default model in the mirror (${web_model}): the page will ask for a model's files")
endif()
