# The layers of tidemark, lowest first (docs/architecture.md draws them).
#
# Each layer is a folder of include/tidemark/ (and the same folder of src/).
# A layer may include itself and the layers before it, never one after it.
# The build enforces this: each layer's sources and its header-alone check
# compile against a staged include tree (build/layers/<layer>/include) that
# holds only that layer and the layers below it, so an upward include is a
# "No such file" error that names the file and the line. Because the order is
# total, two folders can never include each other.
#
# tools/check-layers.cmake reads the same list and reports every upward
# include of a tree at once (the `layers` test).
set(TIDEMARK_LAYERS
  core                 # time, records, keys, tags, describe(): no dependencies
  serialization        # TypeSerializer, the byte format of state and checkpoints
  internal/core        # engine utilities: allocator, operator failure reports
  internal/checkpoint  # checkpoint storage: chk-<id> directories and their _metadata
  internal/time        # processing-time services, the watermark valve
  state                # user state: descriptors and state interfaces
  internal/state       # the heap states: typed state tables in memory
  functions            # user function interfaces, their contexts, KeyedStateBackend
  internal/backends    # the state backends behind KeyedStateBackend (heap)
  eventtime            # watermark strategies and generators
  windowing            # assigners, triggers, evictors
  cep                  # the pattern DSL and match functions
  connectors           # sources and sinks
  connectors/file      # the exactly-once file sink: part files, rolling, buckets
  internal/operators   # operators, outputs, timers
  internal/window      # the window operators
  internal/cep         # the NFA and the CEP operator
  internal/runtime     # stream graph, tasks, channels, executors, job runner
  api                  # DataStream, KeyedStream, the environment
  testing              # operator test harnesses
)

# tidemark_layer_id(<folder> <out-var>): the C identifier naming a layer's targets.
function(tidemark_layer_id folder out)
  string(MAKE_C_IDENTIFIER "${folder}" id)
  set(${out} ${id} PARENT_SCOPE)
endfunction()

# tidemark_add_layer_targets(): for each layer, stage its include tree and add
#   tidemark_<id>               its sources (an OBJECT library; INTERFACE when
#                               the layer is headers only), linked to the layer
#                               below it;
#   tidemark_<id>_header_check  one translation unit per header of the layer,
#                               each including only that header.
# Sets TIDEMARK_LAYER_OBJECTS in the caller: the objects of every layer, which
# make up the tidemark library.
function(tidemark_add_layer_targets)
  set(visible "")
  set(below "")
  set(objects "")
  foreach(folder IN LISTS TIDEMARK_LAYERS)
    tidemark_layer_id(${folder} id)
    set(root ${PROJECT_BINARY_DIR}/layers/${id}/include)
    list(APPEND visible ${folder})
    # Each header on its own: a layer nested in another's folder
    # (connectors/file in connectors) must stay out of the outer one's tree.
    foreach(shown IN LISTS visible)
      set(staged ${root}/tidemark/${shown})
      if(IS_SYMLINK ${staged})
        file(REMOVE ${staged})  # a folder linked whole by an older build tree
      endif()
      file(MAKE_DIRECTORY ${staged})
      file(GLOB shown_headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include/tidemark/${shown}
           ${PROJECT_SOURCE_DIR}/include/tidemark/${shown}/*.h)
      foreach(header IN LISTS shown_headers)
        file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/tidemark/${shown}/${header} ${staged}/${header} SYMBOLIC)
      endforeach()
    endforeach()

    file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${folder}/*.cc)
    if(sources)
      add_library(tidemark_${id} OBJECT ${sources})
      target_include_directories(tidemark_${id} PRIVATE ${root})
      target_link_libraries(tidemark_${id} PRIVATE Threads::Threads absl::flat_hash_map absl::flat_hash_set
                            fmt::fmt tidemark_build_flags ${below})
      set_target_properties(tidemark_${id} PROPERTIES POSITION_INDEPENDENT_CODE ON)
      list(APPEND objects $<TARGET_OBJECTS:tidemark_${id}>)
    else()
      add_library(tidemark_${id} INTERFACE)
      target_link_libraries(tidemark_${id} INTERFACE ${below})
    endif()

    file(GLOB headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include
         ${PROJECT_SOURCE_DIR}/include/tidemark/${folder}/*.h)
    set(checks "")
    foreach(header IN LISTS headers)
      string(MAKE_C_IDENTIFIER "${header}" header_id)
      set(check ${PROJECT_BINARY_DIR}/header_check/${header_id}.cc)
      file(CONFIGURE OUTPUT ${check} CONTENT "#include \"${header}\"\n")
      list(APPEND checks ${check})
    endforeach()
    add_library(tidemark_${id}_header_check OBJECT ${TIDEMARK_HEADER_CHECK_SCOPE} ${checks})
    target_include_directories(tidemark_${id}_header_check PRIVATE ${root})
    target_link_libraries(tidemark_${id}_header_check PRIVATE Threads::Threads absl::flat_hash_map
                          absl::flat_hash_set fmt::fmt tidemark_build_flags)
    # Whether a header compiles alone is a question for the front end: skip
    # the optimizer and the debug info, which are nearly half the time.
    target_compile_options(tidemark_${id}_header_check PRIVATE -O0 -g0)
    set(below tidemark_${id})
  endforeach()
  set(TIDEMARK_LAYER_OBJECTS ${objects} PARENT_SCOPE)
endfunction()
