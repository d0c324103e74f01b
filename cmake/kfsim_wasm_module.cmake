# The WebAssembly module (issue 31): this tree configured by emcmake, as cmake/kfsim_wasm.cmake
# does from a native build with -DKFSIM_WASM=ON.  It builds the kfsim program as kfsim.js (the
# module embedded, so that a page opened from file:// needs no server) from the parts that run
# in a browser; the playground page calls its main() with the same arguments as the native
# program, so both give the same answers.
#
# What is in it is decided here and nowhere else, by two lists:
#   KFSIM_WASM_PARTS     the src/<part>/ folders compiled in, each through its own CMakeLists.txt
#   KFSIM_WASM_COMMANDS  the kfsim commands (src/cli/cmd_<name>.c) the module answers
# Parts that need a real kernel or other processes (the stand-in kernel and its shim,
# kfsim-bpf-cc, the YNL generator) are simply not listed.  Within a listed part, a source that
# needs the real kernel is swapped for the file that stands for it where there is no kernel
# (KFSIM_WASM_SWAP: "part/file.c part/replacement.c" pairs).
#
# Inputs from the native build: KFSIM_HOST_BUILD_DIR (its kfsim-ynl-gen generates the ethtool
# family's code here too) and KFSIM_HOST_LIBRARY_ARCHITECTURE (where Debian's linux-libc-dev
# keeps the <asm/...> uapi headers).
set(KFSIM_WASM_PARTS cliopts core simkit rbtree bpf refcount netlink plca plcasim bfq)
set(KFSIM_WASM_COMMANDS bfq bpf plca rbtree refcount)
set(KFSIM_WASM_SWAP "netlink/kernel_transport.c netlink/kernel_transport_absent.c"
		    "bpf/bpf_explore_run.c bpf/bpf_explore_absent.c")
# The native build compiles every file of src/ that its parts list; the swapped-in files belong to
# this module only.

if(NOT KFSIM_HOST_BUILD_DIR OR NOT KFSIM_HOST_LIBRARY_ARCHITECTURE)
	message(FATAL_ERROR "the WebAssembly module is configured by cmake/kfsim_wasm.cmake "
		"(-DKFSIM_WASM=ON in a native build), which passes KFSIM_HOST_BUILD_DIR and KFSIM_HOST_LIBRARY_ARCHITECTURE")
endif()

# The kernel's uapi headers (<linux/netlink.h>, <linux/types.h>...) are not in emscripten's
# sysroot: take Debian's (linux-libc-dev) into this build tree.  asm-generic's __u64 is
# unsigned long long, right for wasm32 too.
set(uapi ${PROJECT_BINARY_DIR}/uapi)
file(COPY /usr/include/linux /usr/include/asm-generic DESTINATION ${uapi})
file(COPY /usr/include/${KFSIM_HOST_LIBRARY_ARCHITECTURE}/asm DESTINATION ${uapi})

add_compile_options(-ffile-prefix-map=${PROJECT_SOURCE_DIR}/= ${KFSIM_C_WARNINGS})
include_directories(AFTER SYSTEM ${uapi})
set(KFSIM_WITH_JEMALLOC 0)

add_library(kfsim_obj OBJECT)
set_target_properties(kfsim_obj PROPERTIES C_VISIBILITY_PRESET hidden)
target_include_directories(kfsim_obj PUBLIC ${PROJECT_SOURCE_DIR}/include
	${PROJECT_BINARY_DIR}/include PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(kfsim_obj PRIVATE KFSIM_WITH_JEMALLOC=0)
configure_file(include/kfsim/version.h.in include/kfsim/version.h @ONLY)

# kfsim-ynl-gen is a tool of the build machine: the native build's, imported.
add_executable(kfsim-ynl-gen IMPORTED)
set_target_properties(kfsim-ynl-gen PROPERTIES IMPORTED_LOCATION
	${KFSIM_HOST_BUILD_DIR}/kfsim-ynl-gen)

foreach(part IN LISTS KFSIM_WASM_PARTS)
	add_subdirectory(src/${part})
endforeach()

get_target_property(wasm_sources kfsim_obj SOURCES)
foreach(pair IN LISTS KFSIM_WASM_SWAP)
	separate_arguments(pair)
	list(GET pair 0 from)
	list(GET pair 1 to)
	list(REMOVE_ITEM wasm_sources ${PROJECT_SOURCE_DIR}/src/${from})
	list(APPEND wasm_sources ${PROJECT_SOURCE_DIR}/src/${to})
endforeach()
set_target_properties(kfsim_obj PROPERTIES SOURCES "${wasm_sources}")

add_library(kfsim_static STATIC $<TARGET_OBJECTS:kfsim_obj>)
target_include_directories(kfsim_static PUBLIC ${PROJECT_SOURCE_DIR}/include
	${PROJECT_BINARY_DIR}/include)

# The program, with the commands of KFSIM_WASM_COMMANDS (src/cli/CMakeLists.txt reads the list).
list(JOIN KFSIM_WASM_COMMANDS "|" KFSIM_WASM_COMMANDS_REGEX)
add_subdirectory(src/cli)
# Each request is a fresh instance of the module, as each native run is a fresh process: the
# page compiles kfsim.wasm once and instantiates it per call (Module.instantiateWasm), main()
# runs on instantiation with the request's arguments, and exit flushes stdout and stderr.  So no
# state of one request (the --kver in force, debug_locks, the printk ring) reaches the next.
# The BPF part names call sites by return address (__builtin_return_address): that needs
# emscripten's offset converter.  A fresh instance per call makes its start-up cost part of
# every interaction: 4 MiB to start (1 MiB of it stack), grown as a run needs.
set_target_properties(kfsim_cli PROPERTIES SUFFIX .js)
target_link_options(kfsim_cli PRIVATE -sMODULARIZE=1 -sEXPORT_NAME=kfsimModule
	-sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web,node
	-sEXPORTED_RUNTIME_METHODS=FS -sUSE_OFFSET_CONVERTER=1
	-sTOTAL_STACK=1048576 -sINITIAL_MEMORY=4194304)
