#ifndef PERF_UTIL_BPF_INFO_H
#define PERF_UTIL_BPF_INFO_H
/*
 * The BPF_PROG_INFO and BPF_BTF features of a perf.data header: the BPF
 * programs loaded while the file was recorded (their ids, the JITed
 * addresses and sizes of their functions) and the BTF those name their
 * functions with.  Kept as read; printed by --header as the distro does.
 */
#include <stddef.h>
#include <stdio.h>

/*
 * For each program, by id: "# bpf_prog_info ID: NAME addr 0x... size N",
 * or a line per function ("sub_prog") when it has several.  Function names
 * are "bpf_prog_<tag>_<name>", the name from the program's BTF when the
 * file has it (@btf, the BPF_BTF feature), else from its info.  Programs
 * whose lengths do not add up are left out, as the distro leaves them.
 */
void bpf_prog_info__fprintf(FILE *fp, const void *info, size_t len, const void *btf,
			    size_t btf_len);
/* "# btf info of id N", for each BTF object, by id. */
void bpf_btf__fprintf(FILE *fp, const void *btf, size_t len);

/*
 * For each BPF program loaded now, a PERF_RECORD_KSYMBOL per JITed function
 * (named as the kernel names it) and a PERF_RECORD_BPF_EVENT (PROG_LOAD),
 * as the distro writes them at the head of a file: samples in programs
 * loaded before the recording then have names.  0 when the kernel shows
 * none (no privilege, no BPF); a program that goes away meanwhile is
 * skipped; else what ctx->process() returned.
 */
struct synth_ctx;
int perf_event__synthesize_bpf_progs(struct synth_ctx *ctx);

#endif
