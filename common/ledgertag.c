#include "ledgertag.h"

#include <stdio.h>
#include <string.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

/* One SipHash round over the state v. */
static void sip_round(uint64_t v[4])
{
    v[0] += v[1], v[1] = ROTL(v[1], 13), v[1] ^= v[0], v[0] = ROTL(v[0], 32);
    v[2] += v[3], v[3] = ROTL(v[3], 16), v[3] ^= v[2];
    v[0] += v[3], v[3] = ROTL(v[3], 21), v[3] ^= v[0];
    v[2] += v[1], v[1] = ROTL(v[1], 17), v[1] ^= v[2], v[2] = ROTL(v[2], 32);
}

/* SipHash-2-4 (Aumasson and Bernstein): a keyed hash that no one without the key can compute or extend. */
static uint64_t siphash(const uint64_t key[2], const unsigned char *in, size_t length)
{
    uint64_t v[4] = {0x736f6d6570736575ULL ^ key[0], 0x646f72616e646f6dULL ^ key[1], 0x6c7967656e657261ULL ^ key[0],
                     0x7465646279746573ULL ^ key[1]};
    uint64_t last = (uint64_t)length << 56;
    size_t whole = length - length % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = 0;
        for (int b = 0; b < 8; b++)
            m |= (uint64_t)in[i + b] << (8 * b);
        v[3] ^= m;
        sip_round(v), sip_round(v);
        v[0] ^= m;
    }
    for (size_t b = 0; b < length % 8; b++)
        last |= (uint64_t)in[whole + b] << (8 * b);
    v[3] ^= last;
    sip_round(v), sip_round(v);
    v[0] ^= last;
    v[2] ^= 0xff;
    for (int r = 0; r < 4; r++)
        sip_round(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

int clk_ledger_key_parse(const char *text, uint64_t key[2])
{
    key[0] = key[1] = 0;
    if (!text || strlen(text) != 32)
        return -1;
    for (int i = 0; i < 32; i++) {
        char c = text[i];
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0)
            return -1;
        key[i / 16] = key[i / 16] << 4 | (uint64_t)digit;
    }
    return 0;
}

void clk_ledger_key_format(const uint64_t key[2], char text[33])
{
    snprintf(text, 33, "%016llx%016llx", (unsigned long long)key[0], (unsigned long long)key[1]);
}

uint64_t clk_ledger_tag(const uint64_t key[2], unsigned long seq, const char *text)
{
    char head[32];
    size_t head_length = (size_t)snprintf(head, sizeof head, "%lu ", seq), length = strlen(text);
    unsigned char buffer[1024];
    if (head_length + length > sizeof buffer)
        return 0; /* no line of the ledger's is this long: the judge refuses one that is */
    memcpy(buffer, head, head_length);
    memcpy(buffer + head_length, text, length);
    return siphash(key, buffer, head_length + length);
}
