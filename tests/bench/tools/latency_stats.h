// Summaries of a run's samples. Percentiles use the nearest-rank method: p99 of 10,000
// samples is the 9,900th smallest, a value that was actually measured.
#pragma once

#include <vector>

namespace luaform::bench {

// The p-th percentile (0 < p <= 100) of `samples`; 0 for no samples.
double percentile(std::vector<double> samples, double p);

double minimum(const std::vector<double>& samples);

// `x` rounded to `decimals` places, so that the JSON shows what the clock can tell apart.
double rounded(double x, int decimals);

}  // namespace luaform::bench
