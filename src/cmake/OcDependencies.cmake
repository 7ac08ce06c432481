# Finds the libraries opsconsole needs. A missing one stops the configure
# step with the Debian package that provides it.

function(oc_missing what pkg)
  message(FATAL_ERROR "opsconsole: ${what} not found. On Debian/Ubuntu: apt-get install ${pkg}")
endfunction()

find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  oc_missing("pkg-config" "pkg-config")
endif()

# libslurm: Debian ships no pkg-config file, so look for the header and the
# library, preferring SLURM_ROOT (ParallelCluster: /opt/slurm, AWS PCS:
# /opt/aws/pcs/scheduler/slurm-VERSION).
set(_slurm_hints "")
if(SLURM_ROOT)
  list(APPEND _slurm_hints ${SLURM_ROOT})
endif()
if(DEFINED ENV{SLURM_ROOT})
  list(APPEND _slurm_hints $ENV{SLURM_ROOT})
endif()
list(APPEND _slurm_hints /opt/slurm)
file(GLOB _pcs_roots /opt/aws/pcs/scheduler/slurm-*)
list(APPEND _slurm_hints ${_pcs_roots})
find_path(SLURM_INCLUDE_DIR slurm/slurm.h HINTS ${_slurm_hints} PATH_SUFFIXES include)
find_library(SLURM_LIBRARY slurm HINTS ${_slurm_hints} PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
# Without libslurm the console is built with the CLI backend only (the
# Slurm commands, run locally or over SSH): OC_WITH_LIBSLURM defaults to
# whether slurm.h and libslurm.so were found.
if(SLURM_INCLUDE_DIR AND SLURM_LIBRARY)
  set(_slurm_found ON)
else()
  set(_slurm_found OFF)
endif()
option(OC_WITH_LIBSLURM "Build the libslurm backend (else only the CLI backend)" ${_slurm_found})
add_library(oc_slurm_lib INTERFACE)
if(OC_WITH_LIBSLURM)
  if(NOT _slurm_found)
    oc_missing("libslurm (slurm/slurm.h and libslurm.so; set -DSLURM_ROOT=/opt/slurm on a cluster, or -DOC_WITH_LIBSLURM=OFF)" "libslurm-dev")
  endif()
  file(STRINGS ${SLURM_INCLUDE_DIR}/slurm/slurm_version.h _slurm_ver REGEX "^#define SLURM_VERSION_NUMBER")
  string(REGEX REPLACE ".*(0x[0-9a-fA-F]+).*" "\\1" SLURM_VERSION_NUMBER "${_slurm_ver}")
  message(STATUS "libslurm ${SLURM_VERSION_NUMBER}: ${SLURM_LIBRARY} (${SLURM_INCLUDE_DIR})")
  target_include_directories(oc_slurm_lib SYSTEM INTERFACE ${SLURM_INCLUDE_DIR})
  target_link_libraries(oc_slurm_lib INTERFACE ${SLURM_LIBRARY})
  get_filename_component(_slurm_libdir ${SLURM_LIBRARY} DIRECTORY)
  set(SLURM_LIBRARY_DIR ${_slurm_libdir} CACHE INTERNAL "")
else()
  message(STATUS "libslurm: not used (OC_WITH_LIBSLURM=OFF): the CLI backend only")
endif()

# ncursesw with panel, menu and form.
set(CURSES_NEED_WIDE TRUE)
pkg_check_modules(NCURSESW ncursesw panelw menuw formw)
if(NOT NCURSESW_FOUND)
  oc_missing("ncursesw (with panel, menu, form)" "libncurses-dev")
endif()

pkg_check_modules(JANSSON jansson)
if(NOT JANSSON_FOUND)
  oc_missing("jansson" "libjansson-dev")
endif()

pkg_check_modules(LIBSSH libssh)
if(NOT LIBSSH_FOUND)
  oc_missing("libssh" "libssh-dev")
endif()

if(OC_TESTS)
  pkg_check_modules(CMOCKA cmocka)
  if(NOT CMOCKA_FOUND)
    oc_missing("cmocka (needed for the tests; -DOC_TESTS=OFF to build without)" "libcmocka-dev")
  endif()
endif()

find_package(Threads REQUIRED)
