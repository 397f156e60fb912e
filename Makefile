# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# dynpf: make | make test | make run | make bench | make deps | make clean
# make man | make install | make uninstall (PREFIX, SYSCONFDIR, DESTDIR) | make deb
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
LDLIBS   += -lxdp -lbpf -lpcap -ljson-c -lelf -lz -lmicrohttpd -lnettle
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
BPF_OBJS  := $(OUT)/dynpf.bpf.o $(OUT)/dynpf_lazy.bpf.o $(OUT)/dynpf_lazy_tc.bpf.o \
	     $(OUT)/dynpf_abl.bpf.o \
	     $(patsubst %.bpf.c,$(OUT)/%.bpf.o,$(notdir $(BPF_SRCS)))
SKELS     := $(BPF_OBJS:.bpf.o=.skel.h)
# loader/: one folder per role (loader/README.md), one object per source.
LOADER_SRCS := $(filter-out %.bpf.c,$(wildcard loader/*/*.c))
LOADER_HDRS := $(wildcard loader/*/*.h)
LOADER_OBJS := $(patsubst loader/%.c,$(OUT)/loader/%.o,$(LOADER_SRCS)) $(OUT)/native.o
# The rule language (loader/lang/): the unit tests and fuzz targets link it alone.
LANG_SRCS := $(wildcard loader/lang/*.c)
NEG_SRCS  := $(wildcard tests/verifier/*.bpf.c)
NEG_OBJS  := $(patsubst tests/verifier/%.bpf.c,$(OUT)/verifier/%.bpf.o,$(NEG_SRCS))

.DELETE_ON_ERROR:
.SECONDARY: $(SKELS) $(BPF_OBJS) $(BPF_UNITS) $(OUT)/abl/dynpf.bpf.o $(OUT)/lazy/dynpf.bpf.o \
	    $(OUT)/lazy_tc/dynpf.bpf.o
.PHONY: all clean deps check-deps test run bench captures fuzz fuzz-build

all: $(BUILD)/dynpf $(BUILD)/test_parsers $(BUILD)/test_rules $(BUILD)/test_verifier $(BUILD)/test_ctrl $(NEG_OBJS)

# vmlinux.h comes from the running kernel's BTF, at build time, never committed.
$(OUT)/vmlinux.h: | $(OUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(OUT) $(OUT)/bpf $(OUT)/abl $(OUT)/lazy $(OUT)/lazy_tc $(OUT)/loader $(OUT)/verifier $(BUILD):
	$(Q)mkdir -p $@

$(OUT)/bpf/%.bpf.o: bpf/%.bpf.c $(HEADERS) $(OUT)/vmlinux.h | $(OUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# libbpf's static linker: the maps the units share are one (bpf/rules.h).
$(OUT)/dynpf.bpf.o: $(BPF_UNITS)
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

# The XDP programs the loader attaches and runs: the packet programs' unit
# again, the dynptr made at each read (DYNPF_DP_LAZY, parsers/cursor.h), on
# the product's maps (loader/lib/progs.c); no TC program, no drain.
$(OUT)/lazy/dynpf.bpf.o: bpf/dynpf.bpf.c $(HEADERS) $(OUT)/vmlinux.h | $(OUT)/lazy
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DDYNPF_DP_LAZY -c $< -o $@

$(OUT)/dynpf_lazy.bpf.o: $(OUT)/lazy/dynpf.bpf.o
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

# The TC programs the same way (DYNPF_DP_SKB: made by bpf_dynptr_from_skb()).
$(OUT)/lazy_tc/dynpf.bpf.o: bpf/dynpf.bpf.c $(HEADERS) $(OUT)/vmlinux.h | $(OUT)/lazy_tc
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DDYNPF_DP_LAZY -DDYNPF_DP_SKB -c $< -o $@

$(OUT)/dynpf_lazy_tc.bpf.o: $(OUT)/lazy_tc/dynpf.bpf.o
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

# The bench's ablation (bpf/dynpf.bpf.c, DYNPF_ABLATION): the packet programs'
# unit again, with the stages it can stop after; its dynpf_xdp runs on the
# product's maps (loader/bench/rules_stages.c).
$(OUT)/abl/dynpf.bpf.o: bpf/dynpf.bpf.c $(HEADERS) $(OUT)/vmlinux.h | $(OUT)/abl
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DDYNPF_ABLATION -c $< -o $@

$(OUT)/dynpf_abl.bpf.o: $(OUT)/abl/dynpf.bpf.o
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(OUT)/%.bpf.o: loader/bench/%.bpf.c $(wildcard loader/bench/*.h) $(HEADERS) $(OUT)/vmlinux.h | $(OUT)
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

# The unit tests: one harness (tests/lib/unit.h) linked into each; a binary
# grown past one file has a folder of files by topic (tests/lang/, tests/ctrl/).
UNIT      := tests/lib/unit.c
UNIT_HDRS := tests/lib/unit.h $(wildcard tests/*/*.h) $(HEADERS)
PARSERS_TEST_SRCS := $(wildcard tests/parsers/*.c) $(UNIT)
$(BUILD)/test_parsers: $(PARSERS_TEST_SRCS) $(UNIT_HDRS) $(OUT)/native.o | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(PARSERS_TEST_SRCS) $(OUT)/native.o -lpcap -o $@

# The rule language alone: no BPF, no libbpf, no json-c.
RULES_TEST_SRCS := $(wildcard tests/lang/*.c) $(UNIT) $(LANG_SRCS)
$(BUILD)/test_rules: $(RULES_TEST_SRCS) $(wildcard loader/lang/*.h) $(UNIT_HDRS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(RULES_TEST_SRCS) -o $@

# The control channel and classifier against the real programs (root).
CTRL_TEST_OBJS := $(addprefix $(OUT)/loader/,channel/ring.o lib/progs.o lib/log.o channel/ruleset.o \
		    lib/util.o) \
		  $(patsubst loader/%.c,$(OUT)/loader/%.o,$(LANG_SRCS)) $(OUT)/native.o
CTRL_TEST_SRCS := $(wildcard tests/ctrl/*.c) $(UNIT)
$(BUILD)/test_ctrl: $(CTRL_TEST_SRCS) $(CTRL_TEST_OBJS) $(UNIT_HDRS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(CTRL_TEST_SRCS) $(CTRL_TEST_OBJS) $(LDLIBS) \
		-lpthread -o $@

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
FUZZ_parse_SRCS   := parsers/native.c loader/replay/pktfmt.c loader/lib/util.c \
		     loader/replay/declcheck.c $(LANG_SRCS)
FUZZ_rules_SRCS   := $(LANG_SRCS)
FUZZ_ctrlmsg_SRCS := $(LANG_SRCS)
FUZZ_request_SRCS := loader/daemon/request.c $(LANG_SRCS) loader/daemon/config.c \
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

# The build before the tests on every core (93 -> 51 s from a clean tree on 2
# cores): the suite must stay under 15 minutes.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: check-deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all fuzz-build man
	$(Q)BUILD=$(BUILD) OBJ=$(OUT) tests/run.sh

run: check-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh

# One run of `dynpf -j bench` (BENCH_ARGS: its options; by default --frames, a
# capture's frames in turn: docs/bench.md) into build/bench/bench.json, then
# `dynpf -j bench --live` (BENCH_LIVE_ARGS; BENCH_LIVE=0 leaves it out) with its
# "live" object and targets merged into the same JSON (on a kernel that refuses
# the live bench's generator, "live" says why and its targets are unmeasured;
# make bench goes on), then the summary
# (with the targets of issue 18: target, now, met or MISSED) and the PNG plots
# beside it (scripts/bench-report.sh).
BENCH_ARGS ?= --frames pcap-tests/tcp_options.pcap
BENCH_LIVE ?= 1
BENCH_LIVE_ARGS ?= --duration 5
bench: check-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)mkdir -p $(BUILD)/bench
	$(Q)mount | grep -q ' /sys/fs/bpf type bpf' || { \
		echo "bench: mounting bpffs on /sys/fs/bpf (the CLI figures' daemon pins there)"; \
		mount -t bpf bpf /sys/fs/bpf; }
	@echo "bench: $(BUILD)/dynpf -j bench $(BENCH_ARGS) > $(BUILD)/bench/bench.json (a minute or more)"
	$(Q)$(BUILD)/dynpf -j bench $(BENCH_ARGS) > $(BUILD)/bench/bench.json.tmp || \
		{ rm -f $(BUILD)/bench/bench.json.tmp; exit 1; }
	$(Q)if [ "$(BENCH_LIVE)" != 0 ]; then \
		echo "bench: $(BUILD)/dynpf -j bench --live $(BENCH_LIVE_ARGS) (half a minute or more)"; \
		{ $(BUILD)/dynpf -j bench --live $(BENCH_LIVE_ARGS) > $(BUILD)/bench/live.json || \
			grep -q '"unavailable"' $(BUILD)/bench/live.json; } && \
		scripts/bench_data.py --merge $(BUILD)/bench/bench.json.tmp \
			$(BUILD)/bench/live.json || \
		{ rm -f $(BUILD)/bench/bench.json.tmp; exit 1; }; \
	fi
	$(Q)mv $(BUILD)/bench/bench.json.tmp $(BUILD)/bench/bench.json
	$(Q)scripts/bench-report.sh $(BUILD)/bench/bench.json $(BUILD)/bench

captures:
	$(Q)python3 pcap-tests/gen.py pcap-tests

# Style: C as clang-format-19 writes it (.clang-format), shell scripts as
# shellcheck wants them (.shellcheckrc), Python as flake8 does (.flake8).
# `make format` rewrites the C files; `make lint` checks all three (make
# test runs each check as a test).
CLANG_FORMAT ?= clang-format-19
SOURCES   = $(shell git ls-files $(1) 2>/dev/null || \
		find . -path './.*' -prune -o -path './build*' -prune -o -type f -name '$(1)' -print)
C_SRCS    = $(call SOURCES,*.[ch])
SH_SRCS   = $(call SOURCES,*.sh) .ci/run
PY_SRCS   = $(call SOURCES,*.py)
.PHONY: format lint lint-c lint-sh lint-py
format: check-deps
	$(Q)$(CLANG_FORMAT) -i $(C_SRCS)
lint: lint-c lint-sh lint-py
lint-c:
	$(Q)$(CLANG_FORMAT) --dry-run --Werror $(C_SRCS)
lint-sh:
	$(Q)shellcheck $(SH_SRCS)
lint-py:
	$(Q)flake8 $(PY_SRCS)

# Man pages: each page's head (docs/man/PAGE.md), then the reference docs
# it takes in, through pandoc and docs/man/man.lua.
MAN_PAGES         := dynpf.8 dynpf.conf.5 dynpf-rules.7
MAN_dynpf.8       := docs/cli.md docs/daemon.md
MAN_dynpf.conf.5  := docs/config.md
MAN_dynpf-rules.7 := docs/rules.md
.PHONY: man install uninstall
man: $(addprefix $(BUILD)/man/,$(MAN_PAGES))

$(BUILD)/man/%: docs/man/%.md docs/man/man.lua $(foreach p,$(MAN_PAGES),$(MAN_$(p)))
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)pandoc -s -t man --lua-filter docs/man/man.lua $< $(MAN_$*) -o $@

# What make install puts under PREFIX (file:where:mode); make uninstall
# removes exactly these, and the configuration if it is the example still.
PREFIX     ?= /usr/local
SYSCONFDIR ?= /etc
INSTALLS   := $(BUILD)/dynpf:sbin/dynpf:755 \
	      $(BUILD)/man/dynpf.8:share/man/man8/dynpf.8:644 \
	      $(BUILD)/man/dynpf.conf.5:share/man/man5/dynpf.conf.5:644 \
	      $(BUILD)/man/dynpf-rules.7:share/man/man7/dynpf-rules.7:644 \
	      $(BUILD)/dynpf.service:lib/systemd/system/dynpf.service:644 \
	      configs/dynpf.bash-completion:share/bash-completion/completions/dynpf:644
CONF       := $(DESTDIR)$(SYSCONFDIR)/dynpf/dynpf.conf

install: $(BUILD)/dynpf man
	$(Q)sed -e 's|/usr/sbin/dynpf|$(PREFIX)/sbin/dynpf|' -e 's|/etc/dynpf/|$(SYSCONFDIR)/dynpf/|g' \
		configs/dynpf.service >$(BUILD)/dynpf.service
	$(Q)for f in $(INSTALLS); do set -- $$(echo "$$f" | tr : ' '); \
		printf '  %-8s %s\n' INSTALL "$(DESTDIR)$(PREFIX)/$$2"; \
		install -D -m $$3 "$$1" "$(DESTDIR)$(PREFIX)/$$2" || exit 1; done
	$(Q)if [ -e "$(CONF)" ]; then printf '  %-8s %s\n' KEEP "$(CONF) (it exists)"; \
	else printf '  %-8s %s\n' INSTALL "$(CONF)"; install -D -m 644 configs/dynpf.conf "$(CONF)"; fi

uninstall:
	$(Q)for f in $(INSTALLS); do set -- $$(echo "$$f" | tr : ' '); \
		printf '  %-8s %s\n' RM "$(DESTDIR)$(PREFIX)/$$2"; rm -f "$(DESTDIR)$(PREFIX)/$$2"; done
	$(Q)if cmp -s configs/dynpf.conf "$(CONF)"; then printf '  %-8s %s\n' RM "$(CONF)"; rm -f "$(CONF)"; \
	elif [ -e "$(CONF)" ]; then printf '  %-8s %s\n' KEEP "$(CONF) (changed)"; fi
	$(Q)rmdir "$(dir $(CONF))" 2>/dev/null || :

# The Debian package (debian/), by dpkg-buildpackage on a copy of the tree in
# $(BUILD)/deb/src, so that its clean and build leave this tree's alone; the
# .deb lands in $(BUILD)/deb/. Needs root or not (Rules-Requires-Root: no).
DEB_DIR := $(BUILD)/deb
.PHONY: deb
deb: check-deps
	$(call msg,DEB,$(DEB_DIR))
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	$(Q)tar --exclude-vcs --exclude='./build*' --exclude='./.output*' --exclude=./tests/out \
		-cf - . | tar -xf - -C $(DEB_DIR)/src
	$(Q)cd $(DEB_DIR)/src && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		dpkg-buildpackage -b -us -uc -Jauto >../build.log 2>&1 || \
		{ tail -30 ../build.log; echo "make deb: failed; the log: $(DEB_DIR)/build.log" >&2; exit 1; }
	$(Q)rm -rf $(DEB_DIR)/src
	$(Q)ls $(DEB_DIR)/*.deb

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUT) $(BUILD) $(FUZZ_OUT) tests/out
