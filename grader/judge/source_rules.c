#include "judge/source_rules.h"

#include "files.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scanner's state: where it is, and the line the user sees. */
struct scan {
    const char *p;
    int line;
    int line_start; /* nothing but blanks since the line began: a # here starts a directive */
};

/* Skips a backslash-newline (a line splice), counting the line; returns 1 when it skipped one. */
static int splice(struct scan *s)
{
    if (s->p[0] == '\\' && s->p[1] == '\n') {
        s->p += 2, s->line++;
        return 1;
    }
    if (s->p[0] == '\\' && s->p[1] == '\r' && s->p[2] == '\n') {
        s->p += 3, s->line++;
        return 1;
    }
    return 0;
}

static void skip_comment(struct scan *s)
{
    int block = s->p[1] == '*';
    s->p += 2;
    while (*s->p) {
        if (splice(s))
            continue;
        if (*s->p == '\n' && !block)
            return;
        if (block && s->p[0] == '*' && s->p[1] == '/') {
            s->p += 2;
            return;
        }
        s->line += *s->p == '\n';
        s->p++;
    }
}

static void skip_literal(struct scan *s)
{
    char quote = *s->p++;
    while (*s->p && *s->p != quote && *s->p != '\n') {
        if (splice(s))
            continue;
        s->p += s->p[0] == '\\' && s->p[1] ? 2 : 1;
    }
    if (*s->p == quote)
        s->p++;
}

/* An #include operand: "name" with no folder above or absolute path, or <name> where allowed. */
static int include_ok(enum rules_kind kind, const char *operand)
{
    char close = operand[0] == '"' ? '"' : operand[0] == '<' ? '>' : 0;
    const char *end = close ? strchr(operand + 1, close) : NULL;
    size_t length = end ? (size_t)(end - operand - 1) : 0;
    if (!end || length == 0 || operand[1] == '/')
        return 0;
    if (close == '>' && kind != RULES_HOST)
        return 0;
    for (size_t i = 1; i <= length; i++)
        if (!(isalnum((unsigned char)operand[i]) || strchr("_-./", operand[i])) ||
            (operand[i] == '.' && operand[i + 1] == '.'))
            return 0;
    return 1;
}

static int directive(enum rules_kind kind, struct scan *s, const char *path, char *why, size_t size)
{
    char name[16] = "", operand[256] = "";
    int n = 0;
    s->p += *s->p == '#' ? 1 : 2;
    for (;;) {
        if (*s->p == ' ' || *s->p == '\t')
            s->p++;
        else if (s->p[0] == '/' && (s->p[1] == '*' || s->p[1] == '/'))
            skip_comment(s);
        else if (!splice(s))
            break;
    }
    while (n < 15 && (splice(s) || isalpha((unsigned char)*s->p)))
        if (isalpha((unsigned char)*s->p))
            name[n++] = *s->p++;
    if (strcmp(name, "include") != 0 && strcmp(name, "include_next") != 0 && strcmp(name, "import") != 0)
        return 0;
    while (*s->p == ' ' || *s->p == '\t')
        s->p++;
    sscanf(s->p, "%255[^\n]", operand);
    if (strcmp(name, "include") == 0 && include_ok(kind, operand))
        return 0;
    snprintf(why, size, "%s:%d: '#%s %.60s' is not allowed: a submission may include only files in its own lab "
             "folder (\"helper.h\")%s",
             path, s->line, name, operand, kind == RULES_HOST ? " and system headers (<stdio.h>)" : "");
    return -1;
}

/* Names a host program may not use: they reach past the grader's ledger (common/ledger.c) to the OpenCL calls it
   records (the real functions behind -Wl,--wrap, a symbol looked up at run time, an alias), or run code before
   main, while the ledger's key file is still there. Exact names, then prefixes. */
static const char *const ledger_names[] = {"dlsym", "dlvsym", "dlopen", "dlmopen", "weakref", "alias", "ifunc",
                                           "constructor", "destructor", "init_array", "preinit_array",
                                           "clGetExtensionFunctionAddress",
                                           "clGetExtensionFunctionAddressForPlatform", "_cl_icd_dispatch", NULL};
static const char *const ledger_prefixes[] = {"__real_", "__wrap_", NULL};

/* Returns 1 when the identifier start..start + length is one of a host program's forbidden names. */
static int reaches_past_ledger(const char *start, size_t length)
{
    for (int i = 0; ledger_names[i]; i++)
        if (strlen(ledger_names[i]) == length && !strncmp(start, ledger_names[i], length))
            return 1;
    for (int i = 0; ledger_prefixes[i]; i++)
        if (length >= strlen(ledger_prefixes[i]) && !strncmp(start, ledger_prefixes[i], strlen(ledger_prefixes[i])))
            return 1;
    return 0;
}

static int identifier(enum rules_kind kind, struct scan *s, const char *path, char *why, size_t size)
{
    const char *start = s->p;
    while (isalnum((unsigned char)*s->p) || *s->p == '_' || *s->p == '$')
        s->p++;
    if ((s->p - start == 3 && !strncmp(start, "asm", 3)) || (s->p - start == 5 && !strncmp(start, "__asm", 5)) ||
        (s->p - start == 7 && !strncmp(start, "__asm__", 7))) {
        snprintf(why, size, "%s:%d: inline assembly ('%.*s') is not allowed: write the lab in OpenCL C or C", path,
                 s->line, (int)(s->p - start), start);
        return -1;
    }
    if (kind == RULES_HOST && reaches_past_ledger(start, (size_t)(s->p - start))) {
        snprintf(why, size, "%s:%d: '%.*s' is not allowed in a host program: it reaches OpenCL (or runs code) "
                 "around the grader's record of the program's OpenCL calls; call OpenCL by its names", path, s->line,
                 (int)(s->p - start), start);
        return -1;
    }
    return 0;
}

static int punctuation(struct scan *s, const char *path, char *why, size_t size)
{
    const char *what = NULL;
    if (s->p[0] == '#' && s->p[1] == '#')
        what = "token pasting ('##')";
    else if (s->p[0] == '%' && s->p[1] == ':')
        what = "the digraph '%:'";
    else if (s->p[0] == '?' && s->p[1] == '?')
        what = "a trigraph ('?" "?')";
    if (!what)
        return 0;
    snprintf(why, size, "%s:%d: %s is not allowed in a submission (it can spell forbidden code); write it out", path,
             s->line, what);
    return -1;
}

/* ---- What tells one OpenCL implementation from another (kernels only) ----
   A kernel that can tell the device from the reference judge can be right under one alone. So a kernel may not
   name what differs between implementations (version, extension and feature macros, compiler macros and
   builtins), nor turn an address into a number (Oclgrind keeps a buffer number in an address's top bits). */

#define MAX_TOKENS 65536
#define MAX_POINTERS 512
#define MACRO_OPEN (INT_MAX - 1) /* a #define's parameter, until its line ends */

struct token {
    char text[64]; /* an identifier's or a punctuator's spelling (line splices removed), "" for other tokens */
    char kind;     /* 'i' identifier, 'p' punctuator, 'o' other (number, literal) */
    char defines;  /* 1: the name a #define defines */
    int line;
};

/* A name that holds an address, and the lines where it does (a macro's parameter: its #define's lines) and the
   tokens (a declared name: its scope, so that an int of the same name in another function is not taken for it). */
struct pointer {
    char name[64];
    int first_line, last_line;
    int first_token, last_token;
    int macro_token, param; /* a macro's parameter: the token of its #define's name, its position; else -1 */
};

/* The tokens of a kernel, and the names that hold an address: pointers, arrays, macro parameters. */
struct tokens {
    struct token *t;
    int count;
    struct pointer pointers[MAX_POINTERS];
    int pointer_count;
};

/* Names that may not appear in a kernel: exact, then prefixes. */
static const char *const revealing_names[] = {"FP_FAST_FMA", "FP_FAST_FMAF", "FP_FAST_FMA_HALF", "FLT_EVAL_METHOD",
                                              NULL};
static const char *const revealing_prefixes[] = {"CL_VERSION_", "__opencl_", "__has_", "__builtin_", "__clang",
                                                 "__is_identifier", NULL};

static int has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* cl_<vendor>_<name>: an extension macro (cl_khr_fp64, cl_nv_device_attribute_query). */
static int extension_name(const char *s)
{
    size_t vendor = 0;
    if (!has_prefix(s, "cl_"))
        return 0;
    while (isalpha((unsigned char)s[3 + vendor]))
        vendor++;
    return vendor > 0 && s[3 + vendor] == '_' && s[4 + vendor] != '\0';
}

/* Returns 1 when name tells one implementation from another: __X__ macros but __attribute__ and __LINE__, version,
   extension and feature macros, compiler builtins. */
static int revealing(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; revealing_names[i]; i++)
        if (!strcmp(name, revealing_names[i]))
            return 1;
    for (int i = 0; revealing_prefixes[i]; i++)
        if (has_prefix(name, revealing_prefixes[i]))
            return 1;
    if (n > 4 && has_prefix(name, "__") && !strcmp(name + n - 2, "__"))
        return strcmp(name, "__attribute__") != 0 && strcmp(name, "__LINE__") != 0;
    return extension_name(name);
}

static const char *const integer_types[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                                            "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "unsigned", "signed",
                                            "bool", NULL};
static const char *const other_types[] = {"float", "double", "half", "void", "const", "volatile", "restrict",
                                          "__restrict", NULL};

static int in_list(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

/* A type word: a scalar type, a vector of one (float4, uint16), a qualifier. */
static int type_word(const struct token *t)
{
    char base[64];
    size_t n;
    if (t->kind != 'i')
        return 0;
    snprintf(base, sizeof base, "%s", t->text);
    for (n = strlen(base); n > 0 && isdigit((unsigned char)base[n - 1]); n--)
        base[n - 1] = '\0';
    return in_list(base, integer_types) || in_list(base, other_types);
}

static int is(const struct tokens *k, int i, const char *text)
{
    return i >= 0 && i < k->count && !strcmp(k->t[i].text, text);
}

/* Adds a name that holds an address from first_line to last_line. */
static void add_pointer(struct tokens *k, const char *name, int first_line, int last_line)
{
    struct pointer *p = &k->pointers[k->pointer_count];
    if (k->pointer_count >= MAX_POINTERS)
        return;
    k->pointer_count++;
    snprintf(p->name, sizeof p->name, "%s", name);
    p->first_line = first_line;
    p->last_line = last_line;
    p->first_token = 0;
    p->last_token = INT_MAX;
    p->macro_token = p->param = -1;
}

static int pointer_name(const struct tokens *k, int i)
{
    for (int p = 0; i >= 0 && i < k->count && k->t[i].kind == 'i' && p < k->pointer_count; p++)
        if (!strcmp(k->pointers[p].name, k->t[i].text) && k->t[i].line >= k->pointers[p].first_line &&
            k->t[i].line <= k->pointers[p].last_line && i >= k->pointers[p].first_token &&
            i <= k->pointers[p].last_token)
            return 1;
    return 0;
}

/* The index of the bracket that closes the one at open, or k->count. */
static int closing(const struct tokens *k, int open)
{
    int depth = 0;
    for (int i = open; i < k->count; i++) {
        depth += is(k, i, "(") || is(k, i, "[");
        depth -= is(k, i, ")") || is(k, i, "]");
        if (depth == 0)
            return i;
    }
    return k->count;
}

/* The index of the brace that closes the block open at token i (after the '{' at i, or around i), or k->count. */
static int block_end(const struct tokens *k, int i)
{
    int depth = is(k, i, "{") ? -1 : 0;
    for (; i < k->count; i++) {
        depth += is(k, i, "{");
        if (is(k, i, "}") && depth-- == 0)
            return i;
    }
    return k->count;
}

/* Whether the innermost block around token at is a struct's or union's body, whose members a name reaches
   anywhere (s.p, s->p). */
static int in_members(const struct tokens *k, int at)
{
    int depth = 0;
    for (int i = at - 1; i >= 0; i--) {
        depth += is(k, i, "}");
        if (is(k, i, "{") && depth-- == 0)
            return is(k, i - 1, "struct") || is(k, i - 1, "union") || is(k, i - 2, "struct") || is(k, i - 2, "union");
    }
    return 0;
}

/* The last token where a name declared at token at still means it: a struct's member, anywhere; a function's
   parameter, to the end of its body (of its prototype's declaration); anything else, to the end of the innermost
   block around it (a for loop's variable: the block around the loop, a little more than its scope), or of the
   file. */
static int scope_end(const struct tokens *k, int at)
{
    int parens = 0, open = -1;
    if (in_members(k, at))
        return k->count;
    for (int i = at - 1; i >= 0 && open < 0; i--) {
        if (parens == 0 && (is(k, i, "{") || is(k, i, "}") || is(k, i, ";")))
            break;
        if (is(k, i, "("))
            open = parens-- == 0 ? i : -1;
        parens += is(k, i, ")");
    }
    if (open >= 0) {
        int close = closing(k, open);
        if (is(k, close + 1, "{"))
            return block_end(k, close + 1);
        if (is(k, close + 1, ";") || is(k, close + 1, ","))
            return close + 1;
    }
    return block_end(k, at);
}

/* Adds the declared name at token i, from there to the end of its scope. */
static void add_declared(struct tokens *k, int i)
{
    int before = k->pointer_count;
    add_pointer(k, k->t[i].text, 0, INT_MAX);
    if (k->pointer_count > before) {
        k->pointers[before].first_token = i;
        k->pointers[before].last_token = scope_end(k, i);
    }
}

/* Whether the statement around token i is a typedef (typedef __global float *fptr;). */
static int in_typedef(const struct tokens *k, int i)
{
    while (--i >= 0 && !is(k, i, ";") && !is(k, i, "{") && !is(k, i, "}"))
        if (is(k, i, "typedef"))
            return 1;
    return 0;
}

/* Adds the names declared with the pointer type that a typedef names at token name: fptr p, q; f(fptr x). */
static void add_declared_with(struct tokens *k, int name)
{
    for (int i = 0; i < k->count; i++) {
        int j = i + 1, depth = 0;
        if (i == name || strcmp(k->t[i].text, k->t[name].text) != 0)
            continue;
        while (j < k->count && type_word(&k->t[j]))
            j++;
        if (j >= k->count || k->t[j].kind != 'i')
            continue;
        add_declared(k, j);
        for (; j + 1 < k->count && !(depth == 0 && (is(k, j, ";") || is(k, j, ")"))); j++) {
            depth += is(k, j, "(") || is(k, j, "{") || is(k, j, "[");
            depth -= is(k, j, ")") || is(k, j, "}") || is(k, j, "]");
            if (depth == 0 && is(k, j, ",") && k->t[j + 1].kind == 'i')
                add_declared(k, j + 1);
        }
    }
}

/* Finds the names that hold an address: declared after a type and '*' (float *a, const float *restrict b), after
   a comma and '*' (float *a, *b), with a typedef'd pointer type (fptr p), or as an array (__local float
   tile[16][16]). */
static void find_pointers(struct tokens *k)
{
    for (int i = 1; i < k->count; i++) {
        int j = i;
        if (is(k, i, "*") && (type_word(&k->t[i - 1]) || is(k, i - 1, "*") || is(k, i - 1, ","))) {
            while (j + 1 < k->count && (is(k, j + 1, "*") || type_word(&k->t[j + 1])))
                j++;
            if (j + 1 < k->count && k->t[j + 1].kind == 'i') {
                add_declared(k, j + 1);
                if (in_typedef(k, j + 1))
                    add_declared_with(k, j + 1);
            }
        } else if (k->t[i].kind == 'i' && type_word(&k->t[i - 1]) && is(k, i + 1, "["))
            add_declared(k, i);
    }
}

static void push(struct tokens *k, char kind, const char *text, size_t length, int line)
{
    struct token *t = &k->t[k->count++];
    t->kind = kind;
    t->defines = 0;
    t->line = line;
    snprintf(t->text, sizeof t->text, "%.*s", (int)(length < 63 ? length : 63), text);
}

/* Reads an identifier into name, line splices removed (a splice must not hide a name). */
static void read_identifier(struct scan *s, char *name, size_t size)
{
    size_t n = 0;
    for (;;) {
        if (splice(s))
            continue;
        if (!isalnum((unsigned char)*s->p) && *s->p != '_' && *s->p != '$')
            break;
        if (n + 1 < size)
            name[n++] = *s->p;
        s->p++;
    }
    name[n] = '\0';
}

static void skip_blanks(struct scan *s)
{
    while (*s->p == ' ' || *s->p == '\t' || splice(s))
        if (*s->p == ' ' || *s->p == '\t')
            s->p++;
}

/* After '#': a #pragma's line is skipped (OPENCL EXTENSION names an extension without testing for it); a
   function-like #define's parameters may hold addresses. */
static void token_directive(struct scan *s, struct tokens *k)
{
    char name[64];
    s->p++;
    skip_blanks(s);
    read_identifier(s, name, sizeof name);
    if (!strcmp(name, "pragma")) {
        while (*s->p && *s->p != '\n')
            if (!splice(s))
                s->p++;
        return;
    }
    if (strcmp(name, "define") != 0)
        return;
    skip_blanks(s);
    read_identifier(s, name, sizeof name);
    push(k, 'i', name, strlen(name), s->line);
    k->t[k->count - 1].defines = 1;
    if (*s->p != '(')
        return;
    for (int define = k->count - 1, param = 0; *s->p && *s->p != ')' && *s->p != '\n';) {
        if (isalpha((unsigned char)*s->p) || *s->p == '_') {
            int before = k->pointer_count;
            read_identifier(s, name, sizeof name);
            add_pointer(k, name, s->line, MACRO_OPEN);
            if (k->pointer_count > before)
                k->pointers[before].macro_token = define, k->pointers[before].param = param;
            param++;
        } else if (!splice(s))
            s->p++;
    }
}

static const char *const two_char_punctuators[] = {"->", "<=", ">=", "<<", ">>", "==", "!=", "&&", "||", "++", "--",
                                                   "+=", "-=", "*=", "/=", "&=", "|=", "^=", "%=", NULL};

/* One token at s (not a blank, a comment or a directive). */
static void next_token(struct scan *s, struct tokens *k)
{
    char name[64];
    const char *start = s->p;
    if (*s->p == '"' || *s->p == '\'') {
        skip_literal(s);
        push(k, 'o', "", 0, s->line);
    } else if (isalpha((unsigned char)*s->p) || *s->p == '_') {
        read_identifier(s, name, sizeof name);
        push(k, 'i', name, strlen(name), s->line);
    } else if (isdigit((unsigned char)*s->p) || (*s->p == '.' && isdigit((unsigned char)s->p[1]))) {
        while (isalnum((unsigned char)*s->p) || *s->p == '.' || *s->p == '_' ||
               ((*s->p == '+' || *s->p == '-') && strchr("eEpP", s->p[-1])))
            s->p++;
        push(k, 'o', "", 0, s->line);
    } else {
        size_t length = 1;
        for (int i = 0; two_char_punctuators[i]; i++)
            if (!strncmp(s->p, two_char_punctuators[i], 2))
                length = 2;
        s->p += length;
        push(k, 'p', start, length, s->line);
    }
}

/* Splits text into k's tokens, skipping comments and #pragma lines; returns -1 when it has too many. */
static int tokenise(const char *text, struct tokens *k)
{
    struct scan s = {text, 1, 1};
    while (*s.p) {
        if (k->count >= MAX_TOKENS - 1)
            return -1;
        if (splice(&s))
            continue;
        if (*s.p == '\n') {
            for (int p = 0; p < k->pointer_count; p++) /* a #define's parameters end with its line */
                if (k->pointers[p].last_line == MACRO_OPEN)
                    k->pointers[p].last_line = s.line;
            s.line++, s.line_start = 1, s.p++;
            continue;
        }
        if (isspace((unsigned char)*s.p)) {
            s.p++;
            continue;
        }
        if (s.p[0] == '/' && (s.p[1] == '/' || s.p[1] == '*')) {
            skip_comment(&s);
            continue;
        }
        if (s.line_start && *s.p == '#')
            token_directive(&s, k);
        else
            next_token(&s, k);
        s.line_start = 0;
    }
    return 0;
}

/* Whether the ')' at close ends a cast: only type words and '*' since its '('. */
static int closes_cast(const struct tokens *k, int close)
{
    int i = close - 1;
    while (i >= 0 && (type_word(&k->t[i]) || is(k, i, "*")))
        i--;
    return i < close - 1 && is(k, i, "(");
}

/* Whether the token at i is an operator in prefix position (unary & or *): what precedes it ends no operand. */
static int prefix_position(const struct tokens *k, int i)
{
    const struct token *before = i > 0 ? &k->t[i - 1] : NULL;
    if (before && !strcmp(before->text, ")"))
        return closes_cast(k, i - 1);
    return !before || (before->kind == 'p' && strcmp(before->text, "]") != 0 && strcmp(before->text, "++") != 0 &&
                       strcmp(before->text, "--") != 0);
}

/* A name that holds an address used as such: not indexed (a[i]), not dereferenced (*a), not called. */
static int bare_pointer(const struct tokens *k, int i)
{
    return pointer_name(k, i) && !is(k, i + 1, "[") && !is(k, i + 1, "(") &&
           !(is(k, i - 1, "*") && prefix_position(k, i - 1));
}

/* The last token of the operand that starts at i: a bracketed group, or prefix operators, a name or a number and
   its postfix parts (a[i], f(x), v.x). */
static int operand_end(const struct tokens *k, int i)
{
    while (i < k->count && k->t[i].kind == 'p' && strchr("&*-+~!", k->t[i].text[0]) && prefix_position(k, i))
        i++;
    if (is(k, i, "("))
        return closing(k, i);
    while (i + 1 < k->count && (is(k, i + 1, "[") || is(k, i + 1, "(") || is(k, i + 1, ".") || is(k, i + 1, "->"))) {
        if (is(k, i + 1, "[") || is(k, i + 1, "("))
            i = closing(k, i + 1);
        else
            i += 2;
    }
    return i;
}

/* Whether tokens first..last take an address as a number: a unary & or a bare pointer. */
static int takes_address(const struct tokens *k, int first, int last)
{
    for (int i = first; i <= last && i < k->count; i++)
        if ((is(k, i, "&") && prefix_position(k, i)) || bare_pointer(k, i))
            return 1;
    return 0;
}

/* At an opening bracket: a cast to an integer type ((ulong), (unsigned int)) returns its closing bracket; a cast
   to a pointer sets *to_pointer. Returns -1 for anything else. */
static int integer_cast(const struct tokens *k, int open, int *to_pointer)
{
    int i = open + 1, integer = 0;
    *to_pointer = 0;
    if (!is(k, open, "(") || is(k, open - 1, "sizeof") || (open > 0 && k->t[open - 1].kind == 'i' &&
                                                            !type_word(&k->t[open - 1])))
        return -1;
    for (; i < k->count && (type_word(&k->t[i]) || is(k, i, "*")); i++) {
        integer |= k->t[i].kind == 'i' && in_list(k->t[i].text, integer_types);
        *to_pointer |= is(k, i, "*");
    }
    return is(k, i, ")") && i > open + 1 && (integer || *to_pointer) ? i : -1;
}

/* as_ulong(p), as_uint2(p): a reinterpretation of the bracketed operand at i + 1 as integers. */
static int as_integer(const struct tokens *k, int i)
{
    char base[64];
    size_t n;
    if (k->t[i].kind != 'i' || !has_prefix(k->t[i].text, "as_") || !is(k, i + 1, "("))
        return 0;
    snprintf(base, sizeof base, "%s", k->t[i].text + 3);
    for (n = strlen(base); n > 0 && isdigit((unsigned char)base[n - 1]); n--)
        base[n - 1] = '\0';
    return in_list(base, integer_types);
}

/* Why the token at i turns an address into a number, or NULL: a cast to an integer of an address, a cast of a
   pointer's own address to another pointer type (reading its bits), as_<integer> of an address, the difference
   or order of two pointers, a union. */
static const char *address_as_number(const struct tokens *k, int i)
{
    int to_pointer, close;
    if (is(k, i, "union"))
        return "a union (it can read a pointer's bits as a number)";
    if ((close = integer_cast(k, i, &to_pointer)) > 0) {
        int end = operand_end(k, close + 1);
        if (!to_pointer && takes_address(k, close + 1, end))
            return "a cast of an address to an integer";
        if (to_pointer && is(k, close + 1, "&") && bare_pointer(k, close + 2))
            return "a cast of a pointer's own address (it reads the pointer's bits)";
    }
    if (as_integer(k, i) && takes_address(k, i + 1, closing(k, i + 1)))
        return "a reinterpretation of an address as an integer";
    if (bare_pointer(k, i) && (is(k, i + 1, "-") || is(k, i + 1, "<") || is(k, i + 1, ">") || is(k, i + 1, "<=") ||
                               is(k, i + 1, ">=")) && bare_pointer(k, i + 2))
        return "the difference or order of two pointers";
    return NULL;
}

/* Checks a kernel's tokens: no name that tells implementations apart, no address turned into a number. */
static int check_tokens(const struct tokens *k, const char *path, char *why, size_t size)
{
    for (int i = 0; i < k->count; i++) {
        const char *what;
        if (is(k, i, "asm") || is(k, i, "__asm")) { /* spelt across a line splice */
            snprintf(why, size, "%s:%d: inline assembly is not allowed: write the lab in OpenCL C", path,
                     k->t[i].line);
            return -1;
        }
        if (k->t[i].kind == 'i' && revealing(k->t[i].text)) {
            snprintf(why, size, "%s:%d: '%s' is not allowed in a kernel: it tells one OpenCL implementation from "
                     "another, and a kernel must compute the same on every device and under the reference judge",
                     path, k->t[i].line, k->t[i].text);
            return -1;
        }
        if ((what = address_as_number(k, i)) != NULL) {
            snprintf(why, size, "%s:%d: %s is not allowed in a kernel: an address differs from one OpenCL "
                     "implementation to another (index the buffer instead)", path, k->t[i].line, what);
            return -1;
        }
    }
    return 0;
}

/* The names of a kernel's macros, for the arguments' check (more than fit: every name may be one), and the steps
   the check may still take: past them every parameter left is kept as an address, so that a kernel of many macros
   cannot make the check take minutes. */
#define MAX_MACROS 256
#define MACRO_CHECK_STEPS 20000000L
struct macros {
    const char *names[MAX_MACROS];
    int count, overflow;
    long steps;
};

/* Whether tokens first..last may carry an address: a name that holds one, an &, or a macro (whose expansion is not
   seen here). */
static int may_carry_address(const struct tokens *k, struct macros *m, int first, int last)
{
    for (int j = first; j <= last; j++) {
        m->steps -= m->count + k->pointer_count;
        if (m->steps < 0)
            return 1;
        int macro = k->t[j].kind == 'i' && m->overflow;
        for (int d = 0; k->t[j].kind == 'i' && d < m->count && !macro; d++)
            macro = !strcmp(m->names[d], k->t[j].text);
        if (macro || is(k, j, "&") || pointer_name(k, j))
            return 1;
    }
    return 0;
}

/* Whether a macro's parameter p may receive an address: some use of the macro passes one in its place, or names
   the macro without an argument list (whose arguments cannot be seen here). */
static int parameter_may_hold_address(const struct tokens *k, struct macros *m, const struct pointer *p)
{
    const char *macro = k->t[p->macro_token].text;
    m->steps -= k->count;
    for (int i = 0; i < k->count; i++) {
        if (i == p->macro_token || k->t[i].kind != 'i' || strcmp(k->t[i].text, macro) != 0)
            continue;
        if (!is(k, i + 1, "("))
            return 1;
        int end = closing(k, i + 1), depth = 0, arg = 0, first = i + 2;
        for (int j = i + 2; j <= end && arg <= p->param; j++) {
            int split = j == end || (depth == 0 && is(k, j, ","));
            depth += is(k, j, "(") || is(k, j, "[");
            depth -= j < end && (is(k, j, ")") || is(k, j, "]"));
            if (split && arg++ == p->param && may_carry_address(k, m, first, j - 1))
                return 1;
            if (split)
                first = j + 1;
        }
    }
    return 0;
}

/* A macro's parameter holds an address only where some use of the macro gives it one: MIN(x, y) written as
   (x < y ? x : y) and used on ints compares no pointers. */
static void drop_value_parameters(struct tokens *k)
{
    struct macros m = {.steps = MACRO_CHECK_STEPS};
    for (int i = 0; i < k->count; i++)
        if (k->t[i].defines && m.count < MAX_MACROS)
            m.names[m.count++] = k->t[i].text;
        else if (k->t[i].defines)
            m.overflow = 1;
    for (int p = 0; p < k->pointer_count; p++)
        if (k->pointers[p].macro_token >= 0 && m.steps >= 0 && !parameter_may_hold_address(k, &m, &k->pointers[p]))
            k->pointers[p].last_token = -1;
}

/* Checks a kernel for what tells implementations apart; returns 0, or -1 with why. */
static int rules_check_portable(const char *path, const char *text, char *why, size_t size)
{
    struct tokens *k = calloc(1, sizeof *k);
    int rc = -1;
    if (!k || !(k->t = calloc(MAX_TOKENS, sizeof *k->t)))
        snprintf(why, size, "%s: the grader ran out of memory checking it", path);
    else if (tokenise(text, k) != 0)
        snprintf(why, size, "%s: too long for a kernel (more than %d tokens)", path, MAX_TOKENS);
    else {
        find_pointers(k);
        drop_value_parameters(k);
        rc = check_tokens(k, path, why, size);
    }
    if (k)
        free(k->t);
    free(k);
    return rc;
}

int rules_check(enum rules_kind kind, const char *path, const char *text, char *why, size_t size)
{
    struct scan s = {text, 1, 1};
    while (*s.p) {
        int rc = 0;
        if (splice(&s))
            continue;
        if (*s.p == '\n') {
            s.line++, s.line_start = 1, s.p++;
            continue;
        }
        if (*s.p == ' ' || *s.p == '\t' || *s.p == '\r' || *s.p == '\f' || *s.p == '\v') {
            s.p++;
            continue;
        }
        if (s.line_start && (*s.p == '#' || (s.p[0] == '%' && s.p[1] == ':')) && !(s.p[0] == '#' && s.p[1] == '#'))
            rc = directive(kind, &s, path, why, size);
        else if (s.p[0] == '/' && (s.p[1] == '/' || s.p[1] == '*')) {
            skip_comment(&s); /* a comment is blank: a directive may still follow */
            continue;
        } else if (*s.p == '"' || *s.p == '\'')
            skip_literal(&s);
        else if (isalpha((unsigned char)*s.p) || *s.p == '_')
            rc = identifier(kind, &s, path, why, size);
        else if ((rc = punctuation(&s, path, why, size)) == 0)
            s.p++;
        if (rc != 0)
            return -1;
        s.line_start = 0;
    }
    return kind == RULES_KERNEL ? rules_check_portable(path, text, why, size) : 0;
}

int rules_check_file(enum rules_kind kind, const char *real, const char *path, char *why, size_t size)
{
    char *text = clk_file_exists(real) ? clk_read_text(real, NULL) : NULL;
    int rc;
    if (!text)
        return 0;
    rc = rules_check(kind, path, text, why, size);
    free(text);
    return rc;
}

/* The keyword of the directive at s (after its '#'); 1 when the name after it is one it defines or tests. */
static int names_a_macro(struct scan *s)
{
    char word[16];
    s->p++;
    skip_blanks(s);
    read_identifier(s, word, sizeof word);
    return !strcmp(word, "define") || !strcmp(word, "undef") || !strcmp(word, "ifdef") || !strcmp(word, "ifndef");
}

int rules_uses_name(const char *text, const char *name)
{
    struct scan s = {text, 1, 1};
    int macro_name = 0; /* the next name is one that a directive or defined() defines or tests */
    char word[64];
    while (*s.p) {
        if (splice(&s))
            continue;
        if (isspace((unsigned char)*s.p)) {
            s.line_start |= *s.p == '\n';
            macro_name &= *s.p != '\n';
            s.p++;
        } else if (s.p[0] == '/' && (s.p[1] == '/' || s.p[1] == '*')) {
            skip_comment(&s);
        } else if (s.line_start && *s.p == '#') {
            macro_name = names_a_macro(&s);
            s.line_start = 0;
        } else if (isalpha((unsigned char)*s.p) || *s.p == '_') {
            read_identifier(&s, word, sizeof word);
            if (!macro_name && !strcmp(word, name))
                return 1;
            macro_name = !strcmp(word, "defined");
            s.line_start = 0;
        } else {
            if (*s.p == '"' || *s.p == '\'')
                skip_literal(&s);
            else
                s.p++;
            macro_name &= s.p[-1] == '(';
            s.line_start = 0;
        }
    }
    return 0;
}

/* ---- Diagnoses: what a kernel's source shows about a failure ---- */

/* A private scalar declared without a value (float sum;) and then read by a compound assignment (sum += ...)
   before any plain assignment. */
static int find_uninitialised(const struct tokens *k, struct rules_flaw *flaw)
{
    for (int i = 1; i + 1 < k->count; i++) {
        if (k->t[i].kind != 'i' || !type_word(&k->t[i - 1]) || !is(k, i + 1, ";") || is(k, i - 2, "__local") ||
            is(k, i - 2, "local") || is(k, i - 2, "*"))
            continue;
        for (int j = i + 2; j + 1 < k->count; j++) {
            if (strcmp(k->t[j].text, k->t[i].text) != 0)
                continue;
            if (is(k, j + 1, "="))
                break;
            if (is(k, j + 1, "+=") || is(k, j + 1, "-=") || is(k, j + 1, "*=") || is(k, j + 1, "/=")) {
                flaw->line = k->t[i].line;
                flaw->other_line = k->t[j].line;
                snprintf(flaw->name, sizeof flaw->name, "%s", k->t[i].text);
                return 1;
            }
        }
    }
    return 0;
}

/* A return that comes before a barrier, in the order of the text. */
static int find_early_return(const struct tokens *k, struct rules_flaw *flaw)
{
    for (int i = 0; i < k->count; i++) {
        if (!is(k, i, "return"))
            continue;
        for (int j = i + 1; j + 1 < k->count; j++)
            if ((is(k, j, "barrier") || is(k, j, "work_group_barrier")) && is(k, j + 1, "(")) {
                flaw->line = k->t[i].line;
                flaw->other_line = k->t[j].line;
                snprintf(flaw->name, sizeof flaw->name, "return");
                return 1;
            }
    }
    return 0;
}

/* A barrier without CLK_LOCAL_MEM_FENCE in a kernel that shares local memory. */
static int find_global_fence(const struct tokens *k, struct rules_flaw *flaw)
{
    int uses_local = 0;
    for (int i = 0; i < k->count; i++)
        uses_local |= is(k, i, "__local") || is(k, i, "local");
    for (int i = 0; uses_local && i + 1 < k->count; i++) {
        int end, fences_local = 0;
        if (!is(k, i, "barrier") || !is(k, i + 1, "("))
            continue;
        end = closing(k, i + 1);
        for (int j = i + 2; j < end; j++)
            fences_local |= is(k, j, "CLK_LOCAL_MEM_FENCE");
        if (!fences_local) {
            flaw->line = k->t[i].line;
            snprintf(flaw->name, sizeof flaw->name, "%s", k->t[i + 2].text);
            return 1;
        }
    }
    return 0;
}

int rules_find_flaw(const char *text, enum rules_flaw_kind kind, struct rules_flaw *flaw)
{
    static int (*const finders[])(const struct tokens *, struct rules_flaw *) = {
        [RULES_FLAW_UNINITIALISED] = find_uninitialised,
        [RULES_FLAW_EARLY_RETURN] = find_early_return,
        [RULES_FLAW_GLOBAL_FENCE] = find_global_fence,
    };
    struct tokens *k = calloc(1, sizeof *k);
    int found = 0;
    memset(flaw, 0, sizeof *flaw);
    if (k && (k->t = calloc(MAX_TOKENS, sizeof *k->t)) && tokenise(text, k) == 0)
        found = finders[kind](k, flaw);
    if (k)
        free(k->t);
    free(k);
    return found;
}
