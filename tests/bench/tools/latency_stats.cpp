#include "tests/bench/tools/latency_stats.h"

#include <algorithm>
#include <cmath>

namespace luaform::bench {

double percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(samples.size()));
  const auto index = static_cast<size_t>(std::clamp(rank, 1.0, double(samples.size()))) - 1;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(index),
                   samples.end());
  return samples[index];
}

double minimum(const std::vector<double>& samples) {
  return samples.empty() ? 0 : *std::min_element(samples.begin(), samples.end());
}

double rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

}  // namespace luaform::bench
