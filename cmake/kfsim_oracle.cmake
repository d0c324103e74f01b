# Tests that ask a real referee (the running kernel, the kernel's own sources, generator and
# self-tests) carry the ctest label "oracle".  What they need from Debian's linux-source-6.12 is
# unpacked once per build tree, at test time, by the fixture "oracle/linux-source"; every oracle
# test names the paths it reads and requires that fixture.  Nothing from the kernel tree is ever
# written outside the build tree.
#
# kfsim_add_oracle_test(NAME part/name COMMAND cmd args... [LINUX_PATHS p...] [LABELS l...]
#                       [TIMEOUT s] [COST s] [ENVIRONMENT VAR=value...])
#   The test sees KFSIM_LINUX_TREE (the unpacked tree, e.g. .../linux-source-6.12) and must exit
#   77 after printing "skipped: <reason>" when a referee is truly absent.
#   COST: the seconds the test takes on an idle machine, for the slow ones: `ctest -j` starts
#   them first, so a fresh build (CI: no timings kept from an earlier run) does not end with one
#   long test running alone.
set(KFSIM_LINUX_SOURCE_TARBALL "/usr/src/linux-source-6.12.tar.xz" CACHE FILEPATH
	"Debian's linux-source-6.12 tarball, read by the oracle tests")
set(KFSIM_LINUX_TREE "${PROJECT_BINARY_DIR}/linux-source/linux-source-6.12")

function(kfsim_add_oracle_test)
	cmake_parse_arguments(O "" "NAME;TIMEOUT;COST" "COMMAND;LINUX_PATHS;LABELS;ENVIRONMENT" ${ARGN})
	if(NOT O_TIMEOUT)
		set(O_TIMEOUT 600)
	endif()
	string(REPLACE "/" ";" name_parts "${O_NAME}")
	list(GET name_parts 0 part)
	set_property(GLOBAL APPEND PROPERTY KFSIM_LINUX_PATHS ${O_LINUX_PATHS})
	add_test(NAME ${O_NAME} COMMAND ${O_COMMAND})
	set_tests_properties(${O_NAME} PROPERTIES LABELS "${part};oracle;${O_LABELS}"
		TIMEOUT ${O_TIMEOUT} SKIP_RETURN_CODE 77 FIXTURES_REQUIRED linux_source
		ENVIRONMENT "KFSIM_LINUX_TREE=${KFSIM_LINUX_TREE};CMOCKA_MESSAGE_OUTPUT=stdout;${O_ENVIRONMENT}")
	if(O_COST)
		set_tests_properties(${O_NAME} PROPERTIES COST ${O_COST})
	endif()
endfunction()

# Called once, after every tests/<part>/ was added: one unpacking step for the union of paths.
function(kfsim_oracle_finalize)
	get_property(paths GLOBAL PROPERTY KFSIM_LINUX_PATHS)
	if(paths)
		list(REMOVE_DUPLICATES paths)
		list(SORT paths)
	endif()
	string(REPLACE ";" "\n" text "${paths}")
	file(WRITE ${PROJECT_BINARY_DIR}/linux-source/paths.txt "${text}\n")
	add_test(NAME oracle/linux-source COMMAND bash ${PROJECT_SOURCE_DIR}/tests/support/linux-source.sh
		${KFSIM_LINUX_SOURCE_TARBALL} ${PROJECT_BINARY_DIR}/linux-source
		${PROJECT_BINARY_DIR}/linux-source/paths.txt)
	set_tests_properties(oracle/linux-source PROPERTIES LABELS "oracle" FIXTURES_SETUP linux_source
		TIMEOUT 600)
endfunction()
