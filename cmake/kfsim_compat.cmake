# The compatibility include folder: <linux/...>, <net/...>, <asm/...> and <kunit/...> names for
# kernel code built unchanged against kfsim (include/compat/, installed as
# <includedir>/kfsim/compat).  Adding a header is adding one file there: the folder is installed
# whole, and every user reaches it through one include path:
#   in this tree:   ${KFSIM_COMPAT_DIR}, or link the target kfsim::compat
#   installed:      pkg-config --variable=compatdir kfsim, or find_package(kfsim) then
#                   ${KFSIM_COMPAT_DIR} / kfsim::compat
set(KFSIM_COMPAT_DIR ${PROJECT_SOURCE_DIR}/include/compat)
add_library(kfsim_compat INTERFACE)
target_include_directories(kfsim_compat BEFORE INTERFACE
	$<BUILD_INTERFACE:${KFSIM_COMPAT_DIR}>
	$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/kfsim/compat>)
target_link_libraries(kfsim_compat INTERFACE kfsim)
set_target_properties(kfsim_compat PROPERTIES EXPORT_NAME compat)
add_library(kfsim::compat ALIAS kfsim_compat)
