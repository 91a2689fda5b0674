// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ program for test_cli_symbols: a class template's member in two
 * instantiations, a function template, and a function with a static
 * inline one inlined into it, built with g++ -O2 -g. The test reads the
 * names back demangled, and the inlined function's line from --lines.
 */
#include <cstdio>

namespace ns {

template <typename T> struct Box {
	T v;
	__attribute__((noipa)) T twice() const { return v + v; }
};

template <typename T> __attribute__((noipa)) T sum(const T *p, int n)
{
	T s = T();

	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

static inline __attribute__((always_inline)) int square(int x)
{
	return x * x * 3 + (x ^ 0x5a5a); /* CXX_SQUARE_LINE */
}

__attribute__((noipa)) int squares(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += square(i + n); /* CXX_CALL_LINE */
	return s;
}

} // namespace ns

int main(int argc, char **argv)
{
	const int a[3] = { 1, 2, argc };
	ns::Box<int> bi = { argc };
	ns::Box<double> bd = { argc * 0.5 };

	(void)argv;
	std::printf("%d %g %d %d\n", bi.twice(), bd.twice(), ns::sum(a, 3),
		    ns::squares(argc));
	return 0;
}
