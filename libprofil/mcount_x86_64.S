/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The entry points gcc's -pg calls, for x86-64:
 *   mcount (also _mcount): called after the prologue, frame pointer set up;
 *	the callee's PC is our return address, its caller's 8(%rbp).
 *   __fentry__ (-pg -mfentry): called first thing, before any prologue;
 *	the callee's PC is our return address, its caller's the next word.
 * Both keep what glibc's keep: the argument registers and %rax (the
 * vector-register count of a variadic call); pf_arcs_record() uses
 * general registers only, so the caller's %xmm arguments survive too.
 * They record into pf_pg_arcs (mcount.c).
 */
	.text

/* The argument registers and %rax, in the 7 words at %rsp. */
	.macro	SAVE_ARGS
	movq	%rax, (%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
	.endm

	.macro	RESTORE_ARGS
	movq	48(%rsp), %r9
	movq	40(%rsp), %r8
	movq	32(%rsp), %rdi
	movq	24(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	8(%rsp), %rcx
	movq	(%rsp), %rax
	.endm

	.globl	mcount
	.globl	_mcount
	.type	mcount, @function
	.type	_mcount, @function
	.p2align 4
mcount:
_mcount:
	.cfi_startproc
	subq	$56, %rsp		/* 7 words: %rsp is 16-aligned again */
	.cfi_adjust_cfa_offset 56
	SAVE_ARGS
	movq	56(%rsp), %rdx		/* selfpc: in the callee */
	movq	8(%rbp), %rsi		/* frompc: the callee's return address */
	leaq	pf_pg_arcs(%rip), %rdi
	call	pf_arcs_record
	RESTORE_ARGS
	addq	$56, %rsp
	.cfi_adjust_cfa_offset -56
	ret
	.cfi_endproc
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount

	.globl	__fentry__
	.type	__fentry__, @function
	.p2align 4
__fentry__:
	.cfi_startproc
	subq	$64, %rsp		/* 7 words and padding, for alignment */
	.cfi_adjust_cfa_offset 64
	SAVE_ARGS
	movq	64(%rsp), %rdx		/* selfpc: in the callee */
	movq	72(%rsp), %rsi		/* frompc: the callee's return address */
	leaq	pf_pg_arcs(%rip), %rdi
	call	pf_arcs_record
	RESTORE_ARGS
	addq	$64, %rsp
	.cfi_adjust_cfa_offset -64
	ret
	.cfi_endproc
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack, "", @progbits
