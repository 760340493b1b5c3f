/* Source rules for submissions: what a kernel or host program may not contain, checked before anything is built. */
#ifndef CLKIT_GRADER_RULES_H
#define CLKIT_GRADER_RULES_H

#include <stddef.h>

enum rules_kind { RULES_KERNEL, RULES_HOST };

/* Checks the source text of the file shown as path: no inline assembly, no token pasting or trigraphs (which could
   spell it), and #include only of files beside it ("name.h"), or for a host program also system headers
   (<stdio.h>); a host program also names nothing that reaches OpenCL around the grader's ledger (__real_ and
   __wrap_ names, dlsym and dlopen, aliases, code run before main: common/ledger.c); a kernel also names nothing that tells one OpenCL implementation from another (version, extension,
   feature and compiler macros, compiler builtins) and turns no address into a number (casts, as_<integer>,
   pointer differences and order, unions). Returns 0, or -1 with why naming the file and line. */
int rules_check(enum rules_kind kind, const char *path, const char *text, char *why, size_t size);

/* Reads the file at real (shown to students as path) and checks it with rules_check; a file that cannot be read
   passes, since the build then reports it. */
int rules_check_file(enum rules_kind kind, const char *real, const char *path, char *why, size_t size);

/* Returns 1 when text uses the identifier name outside comments and literals, more than as the name that #define,
   #undef, #ifdef, #ifndef or defined() gives or tests (a default it is given and never used is no use of it). */
int rules_uses_name(const char *text, const char *name);

/* Flaws a kernel's source can show, to name the cause of a failure the judges saw. */
enum rules_flaw_kind {
    RULES_FLAW_UNINITIALISED, /* a private scalar read by += before it is ever set */
    RULES_FLAW_EARLY_RETURN,  /* a return before a barrier */
    RULES_FLAW_GLOBAL_FENCE   /* a barrier without CLK_LOCAL_MEM_FENCE where local memory is shared */
};

struct rules_flaw {
    int line;       /* the declaration, the return, the barrier */
    int other_line; /* the first +=, the barrier after the return */
    char name[64];  /* the variable, or the barrier's first flag */
};

/* Looks for a flaw of kind in a kernel's text; returns 1 and fills flaw when found, else 0. */
int rules_find_flaw(const char *text, enum rules_flaw_kind kind, struct rules_flaw *flaw);

#endif
