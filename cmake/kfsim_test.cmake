# kfsim_add_test(NAME name SOURCES a.c b.c [LABELS l1 l2] [LIBS extra] [TIMEOUT s] [ALSO_AS_NOBODY])
# One cmocka executable, registered with ctest under "<part>/<name>".  Tests link the static
# library so that they can reach internal headers under src/ as well as the public ones.
function(kfsim_add_test)
	cmake_parse_arguments(T "ALSO_AS_NOBODY" "NAME;TIMEOUT" "SOURCES;LABELS;LIBS" ${ARGN})
	get_filename_component(part ${CMAKE_CURRENT_SOURCE_DIR} NAME)
	set(exe test_${part}_${T_NAME})
	add_executable(${exe} ${T_SOURCES} ${PROJECT_SOURCE_DIR}/tests/support/cli_run.c
		${PROJECT_SOURCE_DIR}/tests/support/log_assert.c
		${PROJECT_SOURCE_DIR}/tests/support/cli_assert.c)
	add_dependencies(${exe} kfsim_cli)
	target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
	target_compile_definitions(${exe} PRIVATE KFSIM_WITH_JEMALLOC=${KFSIM_WITH_JEMALLOC}
		KFSIM_BINARY_DIR="${PROJECT_BINARY_DIR}" KFSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
		KFSIM_CLI_PATH="$<TARGET_FILE:kfsim_cli>")
	target_link_libraries(${exe} PRIVATE kfsim_static PkgConfig::CMOCKA ${T_LIBS} m)
	add_test(NAME ${part}/${T_NAME} COMMAND ${exe})
	# tests_label_<label>: every program of the suites with that label, so that a run of one
	# label builds only those (scripts/test --sanitize thread builds tests_label_threads)
	foreach(label IN LISTS T_LABELS)
		if(NOT TARGET tests_label_${label})
			add_custom_target(tests_label_${label})
		endif()
		add_dependencies(tests_label_${label} ${exe})
	endforeach()
	if(NOT T_TIMEOUT)
		set(T_TIMEOUT 300)
	endif()
	set_tests_properties(${part}/${T_NAME} PROPERTIES LABELS "${part};${T_LABELS}" TIMEOUT ${T_TIMEOUT}
		ENVIRONMENT "CMOCKA_MESSAGE_OUTPUT=stdout")
	# ALSO_AS_NOBODY: the suite runs a second time as an unprivileged user (uid 65534), where
	# file permissions are not bypassed as they are for root.
	find_program(SETPRIV setpriv)
	if(T_ALSO_AS_NOBODY AND SETPRIV)
		add_test(NAME ${part}/${T_NAME}-nobody COMMAND ${SETPRIV} --reuid=65534 --regid=65534
			--clear-groups $<TARGET_FILE:${exe}>)
		set_tests_properties(${part}/${T_NAME}-nobody PROPERTIES LABELS "${part};${T_LABELS}"
			TIMEOUT ${T_TIMEOUT} ENVIRONMENT "CMOCKA_MESSAGE_OUTPUT=stdout;TMPDIR=/tmp")
	endif()
endfunction()
