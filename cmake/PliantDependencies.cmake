# Finds Pliant's dependencies (Debian 12 packages, see README) and defines imported targets for the
# ones that ship no CMake package. Used by the build and, installed, by pliantConfig.cmake, so that
# a consumer's find_package(pliant) recreates the same targets.
include(CMakeFindDependencyMacro)
if(PLIANT_CONSUMER)
  set(_pliant_find find_dependency)
else()
  set(_pliant_find find_package)
endif()

find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)

# CHOLMOD (SuiteSparse 5 has no CMake config).
if(NOT TARGET pliant_dep::cholmod)
  find_path(PLIANT_CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse REQUIRED)
  find_library(PLIANT_CHOLMOD_LIBRARY cholmod REQUIRED)
  find_library(PLIANT_SUITESPARSECONFIG_LIBRARY suitesparseconfig REQUIRED)
  add_library(pliant_dep::cholmod INTERFACE IMPORTED)
  set_target_properties(pliant_dep::cholmod PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${PLIANT_CHOLMOD_INCLUDE_DIR}
    INTERFACE_LINK_LIBRARIES "${PLIANT_CHOLMOD_LIBRARY};${PLIANT_SUITESPARSECONFIG_LIBRARY}")
endif()

if(PLIANT_WITH_GMSH AND NOT TARGET pliant_dep::gmsh)
  find_path(PLIANT_GMSH_INCLUDE_DIR gmsh.h REQUIRED)
  find_library(PLIANT_GMSH_LIBRARY gmsh REQUIRED)
  add_library(pliant_dep::gmsh INTERFACE IMPORTED)
  set_target_properties(pliant_dep::gmsh PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${PLIANT_GMSH_INCLUDE_DIR}
    INTERFACE_LINK_LIBRARIES ${PLIANT_GMSH_LIBRARY})
endif()

# MPI is optional even when asked for: without it `pliant precompute` runs in one process, as it
# always could. A consumer gets MPI::MPI_CXX back when the installed Pliant was built with it.
if(PLIANT_WITH_MPI AND NOT TARGET MPI::MPI_CXX)
  if(PLIANT_CONSUMER)
    find_dependency(MPI COMPONENTS CXX)
  else()
    find_package(MPI COMPONENTS CXX QUIET)
    if(NOT MPI_CXX_FOUND)
      message(STATUS "MPI not found: pliant::linalg_mpi is not built, precomputation runs in one process "
        "(apt-get install libopenmpi-dev openmpi-bin, or -DPLIANT_WITH_MPI=OFF to silence this)")
    endif()
  endif()
endif()

find_package(fmt REQUIRED)
find_package(nlohmann_json 3 REQUIRED)  # scene files (a private, header-only dependency of pliant::scene)
find_package(ZLIB REQUIRED)  # compressed VTK XML data arrays (vtkZLibDataCompressor), private to pliant::io
if(NOT PLIANT_CONSUMER)
  # Eigenvalues for modal reduction: header-only and private to pliant::fem (modal_analysis.cpp), so an
  # installed Pliant does not need it.
  find_package(Spectra REQUIRED)
endif()

if(PLIANT_WITH_RENDER)
  set(OpenGL_GL_PREFERENCE GLVND)
  find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(PLIANT_STB REQUIRED IMPORTED_TARGET GLOBAL stb)
endif()

if(NOT PLIANT_CONSUMER)
  # Tools and apps only: CLI, tests, benchmarks, viewer.
  find_package(CLI11 REQUIRED)
  if(PLIANT_BUILD_TESTS)
    find_package(GTest REQUIRED)
  endif()
  if(PLIANT_BUILD_BENCH)
    find_package(benchmark REQUIRED)
  endif()
  if(PLIANT_WITH_VIEWER)
    find_package(glfw3 3.3 REQUIRED)
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(PLIANT_IMGUI REQUIRED IMPORTED_TARGET GLOBAL imgui)
  endif()
endif()
