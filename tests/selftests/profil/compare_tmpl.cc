// SPDX-License-Identifier: GPL-2.0
/*
 * make compare's C++ case: templates instantiated for several types,
 * lambdas and inlining (std::sort, std::map, a templated dot product),
 * so that samples land in many mangled, partly inlined functions.
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace work {

template <typename T> struct rng {
	uint64_t s = 88172645463325252ULL;
	T next()
	{
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		return static_cast<T>(s % 1000003);
	}
};

template <typename T>
__attribute__((noinline)) T dot(const std::vector<T> &a, const std::vector<T> &b)
{
	T sum = T();

	for (size_t i = 0; i < a.size(); i++)
		sum += a[i] * b[i];
	return sum;
}

template <typename T> __attribute__((noinline)) void sort_desc(std::vector<T> &v)
{
	std::sort(v.begin(), v.end(), [](const T &x, const T &y) { return y < x; });
}

__attribute__((noinline)) size_t count_words(int rounds)
{
	std::map<std::string, int> m;
	rng<uint32_t> r;

	for (int i = 0; i < rounds; i++)
		m["w" + std::to_string(r.next() % 5000)]++;
	return m.size();
}

template <typename T> T round_of(rng<T> &r, size_t n)
{
	std::vector<T> a(n), b(n);

	for (size_t i = 0; i < n; i++) {
		a[i] = r.next();
		b[i] = r.next();
	}
	sort_desc(a);
	return dot(a, b) + dot(b, a);
}

} // namespace work

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
	work::rng<double> rd;
	work::rng<int64_t> ri;
	double acc = 0;

	for (int i = 0; i < rounds; i++) {
		acc += work::round_of(rd, 20000);
		acc += (double)work::round_of(ri, 20000);
		acc += (double)work::count_words(20000);
	}
	std::printf("%g\n", acc);
	return 0;
}
