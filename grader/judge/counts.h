/* What the kit's Oclgrind plugin counted for one launch, and how it is read back from Oclgrind's output. */
#ifndef CLKIT_GRADER_COUNTS_H
#define CLKIT_GRADER_COUNTS_H

/* Memory accesses of one launch, counted by the kit's Oclgrind plugin (0: not measured). */
struct technique_counts {
    double global_loads, global_stores, local_loads, local_stores;
    /* From the coalescing plugin: warp-wide requests and the 128-byte segments they touch (0: not measured). */
    double load_requests, load_transactions, store_requests, store_transactions;
    /* Local accesses a warp makes together, and the bank passes they need (1 per request: conflict-free). */
    double local_requests, local_wavefronts;
    /* Loads through __constant pointers (-1: the plugin was built without LLVM's headers and cannot tell them). */
    double constant_loads;
    /* Atomic operations on global and local memory (a plugin older than lab 10 counts none). */
    double global_atomics, local_atomics;
    /* Additions of values loaded from local memory (-1: not measured, by a plugin without LLVM's headers or older
       than lab 11). */
    double local_adds, item_adds; /* item_adds: the most that one work-item made */
};

/* Reads the counts of the last launch from the text of the plugin's counts file; returns 0, or -1 when it holds
   none. */
int counts_parse(const char *text, struct technique_counts *counts);

/* The first line of the plugin's counts text that is a launch of the kernel named kernel, or with kernel NULL the
   last line, cut at its end in text; "" when there is none. */
const char *counts_line_of(char *text, const char *kernel);

#endif
