# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# dynpf: make | make test | make run | make bench | make deps | make clean
# V=1 shows the commands; SAN=1 builds user space with ASan and UBSan.

OUT      := .output
BUILD    := build
CLANG    ?= clang-19
BPFTOOL  ?= bpftool
CC       ?= gcc
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
CPPFLAGS += -Iinclude -Iparsers -Irules -Iloader -I$(OUT)
LDLIBS   += -lxdp -lbpf -lpcap -ljson-c -lelf -lz
ifeq ($(SAN),1)
OUT      := .output-san
BUILD    := build-san
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS  += -fsanitize=address,undefined
endif

BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
	      -Iinclude -Iparsers -Irules -Ibpf -I$(OUT)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

HEADERS   := $(wildcard include/dynpf/*.h parsers/*.h rules/*.h bpf/*.h)
# The product's programs: the units in bpf/, compiled apart and linked into one
# object (one skeleton); the benchmark's baselines (loader/bench/), one each.
BPF_UNITS := $(patsubst bpf/%.bpf.c,$(OUT)/bpf/%.bpf.o,$(sort $(wildcard bpf/*.bpf.c)))
BPF_SRCS  := $(wildcard loader/bench/*.bpf.c)
BPF_OBJS  := $(OUT)/dynpf.bpf.o $(patsubst %.bpf.c,$(OUT)/%.bpf.o,$(notdir $(BPF_SRCS)))
SKELS     := $(BPF_OBJS:.bpf.o=.skel.h)
# loader/: one folder per role (loader/README.md), one object per source.
LOADER_SRCS := $(filter-out %.bpf.c,$(wildcard loader/*/*.c))
LOADER_HDRS := $(wildcard loader/*/*.h)
LOADER_OBJS := $(patsubst loader/%.c,$(OUT)/loader/%.o,$(LOADER_SRCS)) $(OUT)/native.o
NEG_SRCS  := $(wildcard tests/verifier/*.bpf.c)
NEG_OBJS  := $(patsubst tests/verifier/%.bpf.c,$(OUT)/verifier/%.bpf.o,$(NEG_SRCS))

.DELETE_ON_ERROR:
.SECONDARY: $(SKELS) $(BPF_OBJS) $(BPF_UNITS)
.PHONY: all clean deps check-deps test run bench captures fuzz fuzz-build

all: $(BUILD)/dynpf $(BUILD)/test_parsers $(BUILD)/test_rules $(BUILD)/test_verifier $(BUILD)/test_ctrl $(NEG_OBJS)

# vmlinux.h comes from the running kernel's BTF, at build time, never committed.
$(OUT)/vmlinux.h: | $(OUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(OUT) $(OUT)/bpf $(OUT)/loader $(OUT)/verifier $(BUILD):
	$(Q)mkdir -p $@

$(OUT)/bpf/%.bpf.o: bpf/%.bpf.c $(HEADERS) $(OUT)/vmlinux.h | $(OUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# libbpf's static linker: the maps the units share are one (bpf/rules.h).
$(OUT)/dynpf.bpf.o: $(BPF_UNITS)
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(OUT)/%.bpf.o: loader/bench/%.bpf.c $(HEADERS) $(OUT)/vmlinux.h | $(OUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# Verifier-negative tests: built here, loaded (and expected to fail) by tests.
$(OUT)/verifier/%.bpf.o: tests/verifier/%.bpf.c tests/verifier/common.h $(HEADERS) \
			 $(OUT)/vmlinux.h | $(OUT)/verifier
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/native.o: parsers/native.c $(HEADERS) | $(OUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(OUT)/loader/%.o: loader/%.c $(HEADERS) $(LOADER_HDRS) $(SKELS) | $(OUT)/loader
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/dynpf: $(LOADER_OBJS) | $(BUILD)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/test_parsers: tests/test_parsers.c $(OUT)/native.o $(HEADERS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(OUT)/native.o -o $@

# The rule language alone: no BPF, no libbpf, no json-c.
$(BUILD)/test_rules: tests/test_rules.c loader/lang/rules_lang.c loader/lang/rules_lang.h $(HEADERS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< loader/lang/rules_lang.c -o $@

# The control channel and classifier against the real programs (root).
CTRL_TEST_OBJS := $(addprefix $(OUT)/loader/,channel/ring.o lib/progs.o lib/log.o channel/ruleset.o \
		    lang/rules_lang.o) \
		  $(OUT)/native.o
$(BUILD)/test_ctrl: tests/test_ctrl.c $(CTRL_TEST_OBJS) $(HEADERS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(CTRL_TEST_OBJS) $(LDLIBS) -lpthread -o $@

$(BUILD)/test_verifier: tests/test_verifier.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(LDLIBS) -o $@

# libFuzzer targets (fuzz/): clang-19 with the fuzzer, ASan and UBSan, each
# linked with the user-space code it exercises, built apart in .output-fuzz.
FUZZ_OUT     := .output-fuzz
FUZZ_CFLAGS  := -O1 -g -std=gnu11 -fno-omit-frame-pointer -fno-sanitize-recover=all \
		-fsanitize=fuzzer-no-link,address,undefined
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
FUZZ_TARGETS := parse rules ctrlmsg request
FUZZ_BINS    := $(addprefix $(FUZZ_OUT)/fuzz_,$(FUZZ_TARGETS))
FUZZ_parse_SRCS   := parsers/native.c loader/replay/pktfmt.c
FUZZ_rules_SRCS   := loader/lang/rules_lang.c
FUZZ_ctrlmsg_SRCS := loader/lang/rules_lang.c
FUZZ_request_SRCS := loader/daemon/request.c loader/lang/rules_lang.c loader/daemon/config.c \
		     loader/lib/log.c
FUZZ_parse_LIBS   := -ljson-c
FUZZ_request_LIBS := -ljson-c -lbpf

$(FUZZ_OUT):
	$(Q)mkdir -p $@

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(HEADERS) $(LOADER_HDRS) $(LOADER_SRCS) | $(FUZZ_OUT)
	$(call msg,FUZZ-CC,$@)
	$(Q)$(CLANG) $(CPPFLAGS) $(FUZZ_CFLAGS) $(FUZZ_LDFLAGS) $< $(FUZZ_$*_SRCS) \
		$(FUZZ_$*_LIBS) -o $@

fuzz-build: check-deps $(FUZZ_BINS)

# FUZZ_TIME seconds per target (default 60); FUZZ=name,... for some only.
FUZZ_TIME ?= 60
FUZZ      ?= $(FUZZ_TARGETS)
comma     := ,
fuzz: fuzz-build
	$(Q)$(MAKE) --no-print-directory all
	$(Q)FUZZ_OUT=$(FUZZ_OUT) BUILD=$(BUILD) scripts/fuzz.sh run $(FUZZ_TIME) $(subst $(comma), ,$(FUZZ))

# Dependencies: installed by the project, from Debian 12 (+ bookworm-backports).
deps:
	$(Q)scripts/deps.sh install

check-deps:
	$(Q)scripts/deps.sh check >/dev/null 2>&1 || scripts/deps.sh install

test: check-deps
	$(Q)$(MAKE) --no-print-directory all fuzz-build
	$(Q)BUILD=$(BUILD) OBJ=$(OUT) tests/run.sh

run: check-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh

# One run of `dynpf -j bench` (BENCH_ARGS: its options) into build/bench/bench.json,
# then its summary and PNG plots beside it (scripts/bench-report.sh).
BENCH_ARGS ?=
bench: check-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)mkdir -p $(BUILD)/bench
	@echo "bench: $(BUILD)/dynpf -j bench $(BENCH_ARGS) > $(BUILD)/bench/bench.json (a minute or more)"
	$(Q)$(BUILD)/dynpf -j bench $(BENCH_ARGS) > $(BUILD)/bench/bench.json.tmp || \
		{ rm -f $(BUILD)/bench/bench.json.tmp; exit 1; }
	$(Q)mv $(BUILD)/bench/bench.json.tmp $(BUILD)/bench/bench.json
	$(Q)scripts/bench-report.sh $(BUILD)/bench/bench.json $(BUILD)/bench

captures:
	$(Q)python3 pcap-tests/gen.py pcap-tests

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUT) $(BUILD) $(FUZZ_OUT) tests/out
