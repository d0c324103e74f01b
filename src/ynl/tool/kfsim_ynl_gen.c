// SPDX-License-Identifier: MIT
/*
 * kfsim-ynl-gen: the generator as its own program.  It is built from the generator's sources
 * alone (plus libyaml), not from libkfsim, because libkfsim itself contains code this program
 * generates: the build runs it before the library exists.
 */
#include <kfsim/ynl_gen.h>

int main(int argc, char **argv)
{
	return kfsim_ynl_gen_main("kfsim-ynl-gen", argc, argv);
}
