// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for make bench-insns: counts the guest's executed
 * instructions per translation block, between two marks the guest makes
 * by running insn_mark (whose two functions sit at fixed addresses).
 *
 * Every block translated gets an inline add on its entry's counter; the
 * blocks are keyed by address and length (a block retranslated with
 * another length is another entry). Running insn_mark's reset function
 * zeroes the counters; its dump function writes "ADDRESS LENGTH COUNT"
 * for each block run since, to OUT.N (N: 0, 1, ... in the order of the
 * dumps), then zeroes them. Under -icount shift=0, an instruction is a
 * guest nanosecond: a block's instructions times its runs are the time
 * it took.
 *
 * Arguments: reset=ADDRESS,dump=ADDRESS,out=PATH.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

struct block {
	uint64_t addr;
	uint64_t insns;
	uint64_t runs;
};

/* Open addressing; blocks are never removed. A guest runs far fewer. */
#define BLOCK_SLOTS (1u << 22)

static struct block **blocks;
static unsigned int nr_blocks;
static uint64_t reset_addr, dump_addr;
static const char *out_path;
static unsigned int dumps;

static struct block *block_of(uint64_t addr, uint64_t insns)
{
	uint64_t h = (addr * 0x9E3779B97F4A7C15ull) ^ insns;
	uint32_t i = (uint32_t)(h >> 40);
	struct block **b;

	for (;; i++) {
		b = &blocks[i & (BLOCK_SLOTS - 1)];
		if (!*b)
			break;
		if ((*b)->addr == addr && (*b)->insns == insns)
			return *b;
	}
	if (nr_blocks >= BLOCK_SLOTS / 2)
		return NULL;
	*b = calloc(1, sizeof(**b));
	if (!*b)
		return NULL;
	(*b)->addr = addr;
	(*b)->insns = insns;
	nr_blocks++;
	return *b;
}

static void reset(unsigned int vcpu, void *unused)
{
	(void)vcpu;
	(void)unused;
	for (uint32_t i = 0; i < BLOCK_SLOTS; i++)
		if (blocks[i])
			blocks[i]->runs = 0;
}

static void dump(unsigned int vcpu, void *unused)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%u", out_path, dumps++);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	for (uint32_t i = 0; i < BLOCK_SLOTS; i++)
		if (blocks[i] && blocks[i]->runs)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				blocks[i]->addr, blocks[i]->insns,
				blocks[i]->runs);
	if (fclose(f))
		perror(path);
	reset(vcpu, unused);
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t addr = qemu_plugin_tb_vaddr(tb);
	struct block *b = block_of(addr, qemu_plugin_tb_n_insns(tb));

	(void)id;
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->runs, 1);
	if (addr == reset_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(
			tb, reset, QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (addr == dump_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(
			tb, dump, QEMU_PLUGIN_CB_NO_REGS, NULL);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "reset=", 6))
			reset_addr = strtoull(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "dump=", 5))
			dump_addr = strtoull(argv[i] + 5, NULL, 0);
		else if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	}
	if (!reset_addr || !dump_addr || !out_path) {
		fprintf(stderr, "insn_count: reset=, dump= and out= needed\n");
		return -1;
	}
	blocks = calloc(BLOCK_SLOTS, sizeof(*blocks));
	if (!blocks)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	return 0;
}
