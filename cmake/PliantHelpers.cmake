# Build helpers shared by every module.

# Warnings for project code only (dependencies come in as SYSTEM includes).
add_library(pliant_warnings INTERFACE)
# The g++ build is the warnings gate; the clang fuzz build (PLIANT_FUZZ) shows clang's extra warnings
# without failing on them, so that a fuzz run never waits on a warning fix.
# The clang ThreadSanitizer build (PLIANT_TSAN) likewise.
target_compile_options(pliant_warnings INTERFACE -Wall -Wextra
  $<$<NOT:$<OR:$<BOOL:${PLIANT_FUZZ}>,$<BOOL:${PLIANT_TSAN}>>>:-Werror>
  # GCC 12 reports false -Wrestrict errors inside std::string concatenation at -O3 (GCC PR 105329).
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
# PLIANT_FUZZ instruments with the same sanitizers (top-level CMakeLists.txt).
if(PLIANT_SANITIZE AND NOT PLIANT_FUZZ)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
# ThreadSanitizer (./dev test's third stage, docs/threads.md): every object of the build, so that a race
# between the World, the haptic thread and OpenMP workers is seen wherever it lands.
if(PLIANT_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

# pliant_add_library(NAME DIR <src/ subfolder> [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# Defines target pliant_NAME (alias pliant::NAME) from every .cpp under src/DIR, installs and exports it.
function(pliant_add_library name)
  cmake_parse_arguments(A "" "DIR" "PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${A_DIR}/*.cpp)
  add_library(pliant_${name} STATIC ${srcs})
  add_library(pliant::${name} ALIAS pliant_${name})
  set_target_properties(pliant_${name} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME pliant_${name})
  target_include_directories(pliant_${name}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(pliant_${name} PUBLIC ${A_PUBLIC_DEPS} PRIVATE ${A_PRIVATE_DEPS}
    $<BUILD_INTERFACE:pliant_warnings>)
  install(TARGETS pliant_${name} EXPORT pliantTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# pliant_add_test(NAME SOURCES ... LIBS ... [LABELS ...])
# One GoogleTest executable; each TEST becomes a ctest entry labelled "unit" unless LABELS says otherwise.
function(pliant_add_test name)
  cmake_parse_arguments(A "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT A_LABELS)
    set(A_LABELS unit)
  endif()
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE ${A_LIBS} GTest::gtest_main GTest::gmock pliant_warnings)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE
    PLIANT_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    PLIANT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(${name} PROPERTIES LABELS "${A_LABELS}" ENVIRONMENT
    "OMP_WAIT_POLICY=passive;OPENBLAS_NUM_THREADS=1" DISCOVERY_TIMEOUT 60)
endfunction()

# Adds each listed subdirectory that exists (modules land one at a time).
macro(pliant_add_subdirectories)
  foreach(_d ${ARGN})
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_d}/CMakeLists.txt)
      add_subdirectory(${_d})
    endif()
  endforeach()
endmacro()
