// SPDX-License-Identifier: MIT
/*
 * png_ink FILE.png: print "WIDTH HEIGHT FRACTION", the fraction of pixels that are visibly not
 * white once composited on white.  Reads the 8-bit grey, RGB, grey+alpha and RGBA PNGs that
 * rsvg-convert writes (no interlace): the IDAT stream inflated with zlib and the five row
 * filters undone.  A helper of svg_raster_check.py, which has the same reader in Python for
 * when this is not built; this one is quick.  Exit 1 with a message for anything else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int fail(const char *what)
{
	fprintf(stderr, "png_ink: %s\n", what);
	return 1;
}

static unsigned char paeth(int left, int up, int up_left)
{
	int p = left + up - up_left, pa = abs(p - left), pb = abs(p - up), pc = abs(p - up_left);

	return pa <= pb && pa <= pc ? left : pb <= pc ? up : up_left;
}

int main(int argc, char **argv)
{
	unsigned char *file, *idat = NULL, *raw = NULL, *zero, *prev, *line;
	uint32_t width = 0, height = 0, channels = 0;
	size_t size, idat_len = 0, stride, pos = 8;
	unsigned long long ink = 0;
	uLongf raw_len;
	FILE *f;
	long len;

	if (argc != 2 || !(f = fopen(argv[1], "rb")))
		return fail("usage: png_ink FILE.png");
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 8 || fseek(f, 0, SEEK_SET))
		return fail("cannot read the file");
	size = (size_t)len;
	file = malloc(size);
	if (!file || fread(file, 1, size, f) != size || memcmp(file, "\x89PNG\r\n\x1a\n", 8))
		return fail("not a PNG");
	fclose(f);
	idat = malloc(size);
	while (idat && pos + 12 <= size) {
		uint32_t chunk = be32(file + pos);
		const unsigned char *body = file + pos + 8;

		if (chunk > size - pos - 12)
			return fail("truncated chunk");
		if (!memcmp(file + pos + 4, "IHDR", 4)) {
			static const int by_type[7] = {1, 0, 3, 0, 2, 0, 4};

			width = be32(body);
			height = be32(body + 4);
			if (body[8] != 8 || body[9] > 6 || !by_type[body[9]] || body[12])
				return fail("only 8-bit, non-interlaced, non-palette PNGs");
			channels = by_type[body[9]];
		} else if (!memcmp(file + pos + 4, "IDAT", 4)) {
			memcpy(idat + idat_len, body, chunk);
			idat_len += chunk;
		}
		pos += 12 + chunk;
	}
	if (!channels || !width || !height || width > 100000 || height > 100000)
		return fail("no usable IHDR");
	stride = (size_t)width * channels;
	raw_len = (stride + 1) * height;
	raw = malloc(raw_len);
	prev = zero = calloc(1, stride);
	if (!raw || !zero || uncompress(raw, &raw_len, idat, idat_len) != Z_OK ||
	    raw_len != (stride + 1) * height)
		return fail("bad image data");
	for (uint32_t y = 0; y < height; y++) {
		unsigned char kind = raw[y * (stride + 1)];

		line = raw + y * (stride + 1) + 1;
		for (size_t x = 0; x < stride; x++) {
			int left = x >= channels ? line[x - channels] : 0, up = prev[x];
			int up_left = x >= channels ? prev[x - channels] : 0;

			line[x] += kind == 1   ? left
				   : kind == 2 ? up
				   : kind == 3 ? (left + up) / 2
				   : kind == 4 ? paeth(left, up, up_left)
					       : 0;
		}
		for (size_t x = 0; x < stride; x += channels) {
			double alpha = channels % 2 == 0 ? line[x + channels - 1] / 255.0 : 1.0;
			uint32_t colours = channels >= 3 ? 3 : 1;
			int visible = 0;

			for (uint32_t c = 0; c < colours; c++)
				visible |= line[x + c] * alpha + 255 * (1 - alpha) < 235;
			ink += visible;
		}
		prev = line;
	}
	printf("%u %u %.6f\n", width, height, (double)ink / ((double)width * height));
	free(zero);
	free(raw);
	free(idat);
	free(file);
	return 0;
}
