# Installation: headers, both libraries, kfsim.pc for pkg-config and a CMake package so that
# find_package(kfsim) gives kfsim::kfsim (shared) and kfsim::kfsim_static.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/kfsim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
	FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/kfsim/version.h
	DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kfsim)
install(DIRECTORY include/compat/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kfsim/compat
	FILES_MATCHING PATTERN "*.h")
install(TARGETS kfsim kfsim_static kfsim_compat EXPORT kfsimTargets
	LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
	ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
	RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
	INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS kfsim_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT kfsimTargets NAMESPACE kfsim:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kfsim)

if(KFSIM_WITH_JEMALLOC)
	set(KFSIM_PC_REQUIRES_PRIVATE "yaml-0.1 jemalloc")
else()
	set(KFSIM_PC_REQUIRES_PRIVATE "yaml-0.1")
endif()
configure_file(cmake/kfsim.pc.in ${PROJECT_BINARY_DIR}/kfsim.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kfsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

configure_package_config_file(cmake/kfsimConfig.cmake.in
	${PROJECT_BINARY_DIR}/kfsimConfig.cmake
	INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kfsim
	PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kfsimConfigVersion.cmake
	COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kfsimConfig.cmake ${PROJECT_BINARY_DIR}/kfsimConfigVersion.cmake
	DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kfsim)
