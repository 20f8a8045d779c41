# Report every include that points from a layer to a layer above it.
#
#   cmake -DROOT=<tree holding include/tidemark and src> -P tools/check-layers.cmake
#
# The layers and their order are cmake/TidemarkLayers.cmake's. The build
# already fails on the first upward include (each layer compiles against only
# the layers below it); this script lists all of them at once, and fails as
# well on a folder that belongs to no layer. Since the order is total, no two
# folders can include each other once this passes.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/TidemarkLayers.cmake)
if(NOT ROOT)
  set(ROOT ${CMAKE_CURRENT_LIST_DIR}/..)
endif()
get_filename_component(ROOT ${ROOT} ABSOLUTE)
list(LENGTH TIDEMARK_LAYERS umbrella)  # the index of tidemark.h, above every layer

# layer_of(<path relative to include/tidemark or src> <out-var>): the index of
# the layer a file or an include target belongs to; -1 when none.
function(layer_of path out)
  get_filename_component(folder ${path} DIRECTORY)
  if(folder STREQUAL "")
    set(${out} ${umbrella} PARENT_SCOPE)
    return()
  endif()
  list(FIND TIDEMARK_LAYERS ${folder} index)
  set(${out} ${index} PARENT_SCOPE)
endfunction()

set(problems "")
file(GLOB_RECURSE headers RELATIVE ${ROOT}/include/tidemark ${ROOT}/include/tidemark/*.h)
file(GLOB_RECURSE sources RELATIVE ${ROOT}/src ${ROOT}/src/*.cc)
set(files "")
foreach(header IN LISTS headers)
  list(APPEND files "include/tidemark|${header}")
endforeach()
foreach(source IN LISTS sources)
  list(APPEND files "src|${source}")
endforeach()

foreach(entry IN LISTS files)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 base)
  list(GET parts 1 file)
  layer_of(${file} own)
  if(own EQUAL -1)
    get_filename_component(folder ${file} DIRECTORY)
    list(APPEND problems "${base}/${file}: folder '${folder}' is in no layer of cmake/TidemarkLayers.cmake")
    continue()
  endif()
  file(STRINGS ${ROOT}/${base}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"tidemark/[^\"]+\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"tidemark/([^\"]+)\".*" "\\1" target "${line}")
    layer_of(${target} theirs)
    if(theirs GREATER own)
      get_filename_component(from ${file} DIRECTORY)
      get_filename_component(to ${target} DIRECTORY)
      list(APPEND problems
           "${base}/${file}: includes \"tidemark/${target}\": layer '${from}' may not include layer '${to}', which is above it")
    endif()
  endforeach()
endforeach()

if(problems)
  list(LENGTH problems count)
  string(REPLACE ";" " < " order "${TIDEMARK_LAYERS}")
  list(JOIN problems "\n  " listed)
  message(FATAL_ERROR "${count} problem(s) with the layering (lowest first: ${order}):\n  ${listed}")
endif()
list(LENGTH files count)
message(STATUS "layers: ${count} files, every include points to its own layer or one below")
