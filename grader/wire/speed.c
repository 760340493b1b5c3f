#include "wire/speed.h"

#include "timing.h"

#include <math.h>
#include <string.h>

void speed_estimate(const double *samples, int count, struct speed_estimate *e)
{
    double sorted[SPEED_MAX_SAMPLES];
    int k;
    memset(e, 0, sizeof *e);
    if (count <= 0)
        return;
    if (count > SPEED_MAX_SAMPLES)
        count = SPEED_MAX_SAMPLES;
    memcpy(sorted, samples, (size_t)count * sizeof *sorted);
    clk_sort_doubles(sorted, (size_t)count);
    e->count = count;
    e->median = clk_median(sorted, (size_t)count);
    /* The k-th smallest and k-th largest bound the median with at least 95% confidence (the sign test's binomial,
       normal approximation); below about 9 samples it is the extremes. */
    k = (int)floor((count - 1.96 * sqrt((double)count)) / 2.0);
    if (k < 1)
        k = 1;
    e->low = sorted[k - 1];
    e->high = sorted[count - k];
}

double speed_relative_width(const struct speed_estimate *e)
{
    return e->median > 0 ? (e->high - e->low) / e->median : 0.0;
}

enum speed_call speed_decide(const struct speed_estimate *e, double threshold)
{
    if (threshold <= 0 || e->count == 0)
        return SPEED_NO_THRESHOLD;
    if (e->low >= threshold)
        return SPEED_MET;
    if (e->high < threshold)
        return SPEED_NOT_MET;
    return SPEED_CLOSE;
}

int speed_may_stop(const struct speed_estimate *e, double threshold, double target, int min_count, double elapsed_s,
                   double budget_s)
{
    int close = speed_decide(e, threshold) == SPEED_CLOSE;
    if (e->count < min_count)
        return 0;
    if (!close && speed_relative_width(e) <= target)
        return 1;
    /* A close call is timed again, as long again, before it is decided. */
    return elapsed_s > (close ? 2.0 * budget_s : budget_s);
}

int speed_stands_when_busy(const struct speed_estimate *e, double threshold)
{
    enum speed_call call = speed_decide(e, threshold);
    return call == SPEED_NO_THRESHOLD || speed_awarded(call) || e->high * SPEED_BUSY_MARGIN < threshold;
}

int speed_awarded(enum speed_call call)
{
    return call == SPEED_MET || call == SPEED_CLOSE;
}
