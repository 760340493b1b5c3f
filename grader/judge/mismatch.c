#include "judge/mismatch.h"

#include "text.h"

#include <string.h>

/* The grid: how many elements a cell covers each way, and how many cells there are. */
struct grid {
    size_t block_rows, block_cols;
    size_t rows, cols;
};

static struct grid grid_for(const struct compare_shape *shape)
{
    struct grid g;
    g.block_rows = (shape->rows + MISMATCH_MAX_ROWS - 1) / MISMATCH_MAX_ROWS;
    g.block_cols = (shape->cols + MISMATCH_MAX_COLS - 1) / MISMATCH_MAX_COLS;
    g.rows = (shape->rows + g.block_rows - 1) / g.block_rows;
    g.cols = (shape->cols + g.block_cols - 1) / g.block_cols;
    return g;
}

int mismatch_applies(const struct compare_shape *shape)
{
    return shape->rows > 0 && shape->cols > 0 && shape->rows * shape->cols == shape->count && shape->count > 1;
}

/* The mark of the cell at (cell_row, cell_col): wrong outranks never written, which outranks right. */
static char cell_mark(const float *got, const double *expected, const double *bound, const struct compare_shape *shape,
                      const struct grid *g, size_t cell_row, size_t cell_col)
{
    char mark = MISMATCH_RIGHT;
    for (size_t r = cell_row * g->block_rows; r < (cell_row + 1) * g->block_rows && r < shape->rows; r++)
        for (size_t c = cell_col * g->block_cols; c < (cell_col + 1) * g->block_cols && c < shape->cols; c++) {
            size_t i = r * shape->cols + c;
            if (compare_right_at(got, shape, i, expected[i], bound[i]))
                continue;
            if (!compare_is_poison(got[i]))
                return MISMATCH_WRONG;
            mark = MISMATCH_NEVER;
        }
    return mark;
}

/* One row of cells for a guard zone: a cell is marked where a written guard word would fall, the zone laid out as
   rows of the matrix continuing past its end (after) or leading up to its start (before). */
static int guard_row(const float *zone, size_t words, uint32_t bits, int after, size_t cols, const struct grid *g,
                     char *cells)
{
    int written = 0;
    memset(cells, ' ', g->cols);
    cells[g->cols] = '\0';
    for (size_t k = 0; zone && k < words; k++) {
        if (memcmp(&zone[k], &bits, sizeof bits) == 0)
            continue;
        size_t col = after ? k % cols : (cols - (words - k) % cols) % cols;
        cells[col / g->block_cols] = MISMATCH_OUTSIDE;
        written = 1;
    }
    return written;
}

void mismatch_draw(const float *got, const double *expected, const double *bound, const struct compare_shape *shape,
                   const struct mismatch_guards *guards, char *text, size_t size)
{
    struct grid g = grid_for(shape);
    char cells[MISMATCH_MAX_COLS + 1];
    const char *legend[] = {"  . right", "  X wrong", "  o never written", "  ! written outside the matrix"};
    size_t legend_line = 0;
    clk_append(text, size, "\n  map of the %zu x %zu result, a cell per %zu x %zu elements:", shape->rows, shape->cols,
               g.block_rows, g.block_cols);
    if (guards && guard_row(guards->before, guards->words, guards->bits, 0, shape->cols, &g, cells))
        clk_append(text, size, "\n  " MISMATCH_ROW "%s|  before the start", cells);
    for (size_t r = 0; r < g.rows; r++) {
        for (size_t c = 0; c < g.cols; c++)
            cells[c] = cell_mark(got, expected, bound, shape, &g, r, c);
        cells[g.cols] = '\0';
        clk_append(text, size, "\n  " MISMATCH_ROW "%s|%s", cells, legend_line < 4 ? legend[legend_line] : "");
        legend_line++;
    }
    if (guards && guard_row(guards->after, guards->words, guards->bits, 1, shape->cols, &g, cells))
        clk_append(text, size, "\n  " MISMATCH_ROW "%s|  past the end", cells);
    for (; legend_line < 4; legend_line++)
        clk_append(text, size, "\n%*s%s", (int)(strlen(MISMATCH_ROW) + g.cols + 3), "", legend[legend_line]);
}
