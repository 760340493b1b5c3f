/* The ledger's seal: a keyed tag on each line a host program's ledger (common/ledger.h) writes, so that the judge
   can tell its lines from any that the program's own code wrote into the same file. The key is the judge's, fresh
   for each run, written to a file beside the ledger's (its name and CLK_LEDGER_KEY_SUFFIX) that the ledger reads
   and deletes before main runs: not in the environment, where a parent process (bubblewrap's) would still hold it. */
#ifndef CLKIT_LEDGERTAG_H
#define CLKIT_LEDGERTAG_H

#include <stddef.h>
#include <stdint.h>

/* What the key file's name adds to the ledger's; it holds 32 hex digits. */
#define CLK_LEDGER_KEY_SUFFIX ".key"

/* Reads 32 hex digits from text into key; returns 0, or -1 when text is not such a key. */
int clk_ledger_key_parse(const char *text, uint64_t key[2]);

/* Writes key as 32 hex digits and a NUL into text (33 bytes). */
void clk_ledger_key_format(const uint64_t key[2], char text[33]);

/* The longest line the ledger writes and the judge accepts, seq and tag left out. */
#define CLK_LEDGER_LINE_MAX 960

/* The tag of line number seq holding text (without its newline): SipHash-2-4 of "seq text" under key; 0 for a text
   longer than CLK_LEDGER_LINE_MAX. */
uint64_t clk_ledger_tag(const uint64_t key[2], unsigned long seq, const char *text);

#endif
