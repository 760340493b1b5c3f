/* grader/judge/mismatch.c: the map of a matrix result, its cells and the rows for writes outside the matrix. */
#include "suites.h"

#include "judge/mismatch.h"

#include <stdlib.h>
#include <string.h>

#define ROWS 40
#define COLS 40
#define GUARD 64

static float got[ROWS * COLS];
static double expected[ROWS * COLS], bound[ROWS * COLS];
static const struct compare_shape shape = {.type = COMPARE_FLOAT, .count = ROWS * COLS, .rows = ROWS, .cols = COLS};

/* A right result: element i holds i. */
static void right_result(void)
{
    for (size_t i = 0; i < ROWS * COLS; i++) {
        got[i] = (float)i;
        expected[i] = (double)i;
        bound[i] = 0.0;
    }
}

/* The index-th map row of text (from 0), or NULL. */
static const char *map_row(const char *text, int index)
{
    const char *at = text;
    for (int i = 0; (at = strstr(at, MISMATCH_ROW)) != NULL; i++, at++)
        if (i == index)
            return at + strlen(MISMATCH_ROW);
    return NULL;
}

START_TEST(missing_right_edge_shows_as_unwritten_cells)
{
    char text[4096] = "";
    right_result();
    for (size_t r = 0; r < ROWS; r++)
        for (size_t c = 32; c < COLS; c++)
            got[r * COLS + c] = compare_poison();
    mismatch_draw(got, expected, bound, &shape, NULL, text, sizeof text);
    /* 40 columns in 32 cells: 2 columns a cell, so columns 32-39 are cells 16-19. */
    ck_assert_msg(strstr(text, "a cell per 3 x 2 elements"), "%s", text);
    ck_assert_msg(strncmp(map_row(text, 0), "................oooo|", 21) == 0, "%s", text);
    ck_assert_msg(strncmp(map_row(text, 13), "................oooo|", 21) == 0, "%s", text);
    ck_assert_ptr_null(map_row(text, 14));
    ck_assert_ptr_nonnull(strstr(text, "o never written"));
}
END_TEST

START_TEST(a_wrong_value_outranks_an_unwritten_one)
{
    char text[4096] = "";
    right_result();
    got[0] = compare_poison();
    got[1] = 12345.0f; /* the same cell as element 0 */
    got[COLS * 39 + 39] = compare_poison();
    mismatch_draw(got, expected, bound, &shape, NULL, text, sizeof text);
    ck_assert_int_eq(map_row(text, 0)[0], MISMATCH_WRONG);
    ck_assert_int_eq(map_row(text, 0)[1], MISMATCH_RIGHT);
    ck_assert_int_eq(map_row(text, 13)[19], MISMATCH_NEVER);
}
END_TEST

START_TEST(writes_past_the_end_get_their_own_row)
{
    char text[4096] = "";
    float before[GUARD], after[GUARD];
    uint32_t bits = 0x7fc0feedu;
    for (int k = 0; k < GUARD; k++) {
        memcpy(&before[k], &bits, sizeof bits);
        memcpy(&after[k], &bits, sizeof bits);
    }
    after[3] = 1.0f;     /* row 40 (one past the end), column 3: cell 1 */
    before[GUARD - 1] = 1.0f; /* the word just before the start: the last column, cell 19 */
    struct mismatch_guards guards = {.before = before, .after = after, .words = GUARD, .bits = bits};
    right_result();
    mismatch_draw(got, expected, bound, &shape, &guards, text, sizeof text);
    ck_assert_msg(strstr(text, MISMATCH_ROW " !                  |  past the end"), "%s", text);
    ck_assert_msg(strstr(text, MISMATCH_ROW "                   !|  before the start"), "%s", text);
    /* Untouched guards draw no row. */
    after[3] = before[GUARD - 1];
    memcpy(&after[3], &bits, sizeof bits);
    memcpy(&before[GUARD - 1], &bits, sizeof bits);
    text[0] = '\0';
    mismatch_draw(got, expected, bound, &shape, &guards, text, sizeof text);
    ck_assert_ptr_null(strstr(text, "past the end"));
    ck_assert_ptr_null(strstr(text, "before the start"));
}
END_TEST

START_TEST(only_matrices_have_maps)
{
    struct compare_shape vector = {.type = COMPARE_FLOAT, .count = 100};
    struct compare_shape one = {.type = COMPARE_FLOAT, .count = 1, .rows = 1, .cols = 1};
    ck_assert(mismatch_applies(&shape));
    ck_assert(!mismatch_applies(&vector));
    ck_assert(!mismatch_applies(&one));
}
END_TEST

/* compare_result names an edge that is wrong, and only that. */
START_TEST(a_wrong_edge_is_named)
{
    struct compare_summary summary;
    right_result();
    for (size_t r = 0; r < ROWS; r++)
        got[r * COLS + 39] = 0.5f;
    compare_result(got, expected, bound, &shape, &summary);
    ck_assert_msg(strstr(summary.pattern, "only the right edge is wrong, every column from 39 on"), "%s",
                  summary.pattern);
    for (size_t c = 0; c < COLS; c++)
        got[36 * COLS + c] = got[37 * COLS + c] = got[38 * COLS + c] = got[39 * COLS + c] = 0.5f;
    compare_result(got, expected, bound, &shape, &summary);
    ck_assert_msg(strstr(summary.pattern, "every column from 39 and every row from 36 on"), "%s", summary.pattern);
    got[5] = 0.5f; /* one more wrong element inside: no longer an edge */
    compare_result(got, expected, bound, &shape, &summary);
    ck_assert_ptr_null(strstr(summary.pattern, "edge"));
}
END_TEST

Suite *mismatch_suite(void)
{
    Suite *s = suite_create("mismatch");
    TCase *tc = tcase_create("map");
    tcase_add_test(tc, missing_right_edge_shows_as_unwritten_cells);
    tcase_add_test(tc, a_wrong_value_outranks_an_unwritten_one);
    tcase_add_test(tc, writes_past_the_end_get_their_own_row);
    tcase_add_test(tc, only_matrices_have_maps);
    tcase_add_test(tc, a_wrong_edge_is_named);
    suite_add_tcase(s, tc);
    return s;
}
