/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C++ names as people read them, for the symbols layer: libstdc++'s
 * abi::__cxa_demangle(), the demangler perf (since 6.4) and elfutils'
 * tools call, with parameters and qualifiers ("ns::Box<int>::twice()
 * const"), as perf report and addr2line -C show them.
 */
#ifndef PROFIL_CTL_DEMANGLE_H
#define PROFIL_CTL_DEMANGLE_H

/**
 * demangle() - @name demangled, if it is a mangled C++ (Itanium ABI)
 * name: "_Z...", optionally followed by an ELF symbol version
 * ("@VER", "@@VER"), which is kept; clone suffixes (".cold",
 * ".isra.0") become " [clone .cold]"
 * Return: a malloc'ed string, or NULL: not a mangled name, not one the
 * demangler knows, or no memory.
 */
char *demangle(const char *name);

#endif /* PROFIL_CTL_DEMANGLE_H */
