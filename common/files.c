#include "files.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *clk_read_text(const char *path, size_t *length)
{
    FILE *file = fopen(path, "rb");
    char *text = NULL;
    long size;
    if (!file) {
        fprintf(stderr, "error: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (fseek(file, 0, SEEK_END) != 0 || (size = ftell(file)) < 0 || fseek(file, 0, SEEK_SET) != 0) {
        fprintf(stderr, "error: cannot read %s: %s\n", path, strerror(errno));
        goto cleanup;
    }
    text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "error: cannot read %s\n", path);
        free(text);
        text = NULL;
        goto cleanup;
    }
    text[size] = '\0';
    if (length)
        *length = (size_t)size;
cleanup:
    fclose(file);
    return text;
}

/* Float32 files are little-endian on disk; swap on a big-endian host. */
static uint32_t to_little_endian(uint32_t word)
{
    const uint16_t probe = 1;
    if (*(const unsigned char *)&probe == 1)
        return word;
    return (word >> 24) | ((word >> 8) & 0xff00u) | ((word << 8) & 0xff0000u) | (word << 24);
}

int clk_write_floats(const char *path, const float *values, size_t count)
{
    FILE *file = fopen(path, "wb");
    int rc = -1;
    if (!file) {
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t word;
        memcpy(&word, &values[i], sizeof word);
        word = to_little_endian(word);
        if (fwrite(&word, sizeof word, 1, file) != 1)
            goto cleanup;
    }
    rc = 0;
cleanup:
    if (fclose(file) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    return rc;
}

float *clk_read_floats(const char *path, size_t *count)
{
    size_t bytes = 0;
    char *raw = clk_read_text(path, &bytes);
    float *values = NULL;
    if (!raw)
        return NULL;
    if (bytes % 4 != 0) {
        fprintf(stderr, "error: %s holds %zu bytes, not a whole number of float32 values\n", path, bytes);
        goto cleanup;
    }
    values = malloc(bytes ? bytes : 1);
    if (!values)
        goto cleanup;
    for (size_t i = 0; i < bytes / 4; i++) {
        uint32_t word;
        memcpy(&word, raw + 4 * i, sizeof word);
        word = to_little_endian(word);
        memcpy(&values[i], &word, sizeof word);
    }
    *count = bytes / 4;
cleanup:
    free(raw);
    return values;
}

int clk_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
