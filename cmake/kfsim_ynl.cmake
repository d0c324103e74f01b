# kfsim_ynl_generate(SPEC <yaml> OUT_DIR <dir> [MODES uapi kernel user] [OUTPUTS <var>])
#
# Adds a build rule that runs kfsim-ynl-gen on SPEC and writes, for family F (the spec's name
# with '-' -> '_'), into OUT_DIR:
#   F-uapi.h                  (mode uapi)
#   F-kernel.h  F-kernel.c    (mode kernel)
#   F-user.h    F-user.c      (mode user)
#   F-test.c                  (mode test: a program testing the two above; #includes them)
# Default MODES: all three.  OUTPUTS receives the list of generated files (add the .c files to
# a target's sources; add OUT_DIR to its include directories).  The rule re-runs when the spec
# or the generator changes.  Safe to call from any part's CMakeLists.txt, before or after
# src/ynl is processed (the kfsim-ynl-gen target is resolved at generate time).
function(kfsim_ynl_generate)
	cmake_parse_arguments(Y "" "SPEC;OUT_DIR;OUTPUTS" "MODES" ${ARGN})
	if(NOT Y_SPEC OR NOT Y_OUT_DIR)
		message(FATAL_ERROR "kfsim_ynl_generate: SPEC and OUT_DIR are required")
	endif()
	if(NOT IS_ABSOLUTE ${Y_SPEC})
		set(Y_SPEC ${CMAKE_CURRENT_SOURCE_DIR}/${Y_SPEC})
	endif()
	if(NOT Y_MODES)
		set(Y_MODES uapi kernel user)
	endif()
	# The family name decides the file names: read it from the spec's "name:" line.
	file(STRINGS ${Y_SPEC} name_line REGEX "^name:[ \t]*[A-Za-z0-9_-]+" LIMIT_COUNT 1)
	string(REGEX REPLACE "^name:[ \t]*([A-Za-z0-9_-]+).*" "\\1" family "${name_line}")
	string(REPLACE "-" "_" family "${family}")
	if(family STREQUAL "")
		message(FATAL_ERROR "kfsim_ynl_generate: no top-level 'name:' in ${Y_SPEC}")
	endif()
	set(outputs "")
	set(mode_args "")
	foreach(mode IN LISTS Y_MODES)
		list(APPEND mode_args --mode ${mode})
		if(mode STREQUAL "uapi")
			list(APPEND outputs ${Y_OUT_DIR}/${family}-uapi.h)
		elseif(mode STREQUAL "test")
			list(APPEND outputs ${Y_OUT_DIR}/${family}-test.c)
		elseif(mode STREQUAL "kernel" OR mode STREQUAL "user")
			list(APPEND outputs ${Y_OUT_DIR}/${family}-${mode}.h ${Y_OUT_DIR}/${family}-${mode}.c)
		else()
			message(FATAL_ERROR "kfsim_ynl_generate: unknown mode '${mode}'")
		endif()
	endforeach()
	file(MAKE_DIRECTORY ${Y_OUT_DIR})
	add_custom_command(OUTPUT ${outputs}
		COMMAND kfsim-ynl-gen ${mode_args} --out-dir ${Y_OUT_DIR} ${Y_SPEC}
		DEPENDS ${Y_SPEC} kfsim-ynl-gen
		COMMENT "kfsim-ynl-gen ${Y_SPEC}"
		VERBATIM)
	if(Y_OUTPUTS)
		set(${Y_OUTPUTS} ${outputs} PARENT_SCOPE)
	endif()
endfunction()
