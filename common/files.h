/* Files: whole text files, and raw little-endian float32 arrays. */
#ifndef CLKIT_FILES_H
#define CLKIT_FILES_H

#include <stddef.h>

/* Reads a whole file into a NUL-terminated buffer that the caller frees; returns NULL after printing why. */
char *clk_read_text(const char *path, size_t *length);

/* Writes count 4-byte words (float32, or int32/uint32 for an integer result) to path, little-endian; returns 0, or
   -1 after printing why. */
int clk_write_floats(const char *path, const float *values, size_t count);

/* Reads a float32 file into a buffer that the caller frees, storing its length in count; returns NULL after printing why. */
float *clk_read_floats(const char *path, size_t *count);

/* Returns 1 when path names a readable regular file. */
int clk_file_exists(const char *path);

#endif
