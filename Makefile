# dalic — hand-written Makefile.
#
#   make                      library (static + shared), the dalic command, samples, tests
#   make test                 build and run the test suite
#   make test-gpu             the CUDA kernels on a real GPU against the CPU (docs/gpu.md)
#   make run                  the main job: dalic on the sample pipeline
#   make SANITIZE=address,undefined test   (or SANITIZE=thread)
#   make install PREFIX=/usr/local DESTDIR=
#   make clean                V=1 shows full command lines
#
# Missing Debian packages are installed by tools/deps.sh before the first build.
# nvcc found => the CUDA backend (engine/device_cuda.c, kernels/cuda/*.cu) is built in; it
# falls back to the emulated device at run time when no GPU is present.
# Open MPI found (pkg-config $(MPI_PKG), libopenmpi-dev) => `--ranks` gathers the ranks'
# statistics through MPI (cli/ranks_mpi.c); left out of sanitizer builds, like CUDA.

.DEFAULT_GOAL := all
PREFIX   ?= /usr/local
DESTDIR  ?=
SANITIZE ?=
V        ?= 0
CC       ?= cc
comma    := ,
VARIANT  := $(if $(SANITIZE),san-$(subst $(comma),-,$(SANITIZE)),release)
BUILD    ?= build/$(VARIANT)
# The version lives in include/dalic.h (DALIC_VERSION_MAJOR/MINOR/PATCH).
VERSION  := $(shell sed -n 's/^\#define DALIC_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' include/dalic.h | paste -sd.)

ifeq ($(V),1)
Q :=
else
Q := @
endif

MPI_PKG := ompi-c
PKGS := libturbojpeg libjpeg ncursesw libprotobuf-c chafa libgvc libpng libcjson sndfile fftw3f \
            libavformat libavcodec libavutil libswscale lmdb

OPT      := $(if $(SANITIZE),-O1 -g -fno-omit-frame-pointer,-O2 -g) -fno-math-errno \
            $(if $(filter gcc cc,$(notdir $(CC))),-fvect-cost-model=dynamic)
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-sanitize-recover=undefined)
WARN     := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers $(if $(WERROR),-Werror)
CFLAGS   += -std=gnu11 $(OPT) $(WARN) -fPIC -pthread $(SANFLAGS) -MMD -MP
CPPFLAGS += -Iinclude -I. -I$(BUILD)/gen -D_GNU_SOURCE
LDFLAGS  += -pthread $(SANFLAGS)
LDLIBS   += -lm

# config.mk: written after the dependency check; holds pkg-config flags and the CUDA switch.
ifeq ($(filter clean distclean,$(MAKECMDGOALS)),)
-include $(BUILD)/config.mk
endif

$(BUILD)/config.mk: tools/deps.sh Makefile
	@mkdir -p $(@D)
	$(Q)sh tools/deps.sh
	@cuda=""; libs=""; mpi=""; \
	if pkg-config --exists $(MPI_PKG) && [ -z "$(SANITIZE)" ]; then mpi=1; fi; \
	if command -v nvcc >/dev/null 2>&1 && [ -z "$(SANITIZE)" ]; then \
		cuda=$$(dirname $$(dirname $$(command -v nvcc))); \
		libs="-L$$cuda/lib64 -Wl,-rpath,$$cuda/lib64 -lcudart -lstdc++"; \
	fi; \
	{ echo "PKG_CFLAGS := $$(pkg-config --cflags $(PKGS))"; \
	  echo "PKG_LIBS := $$(pkg-config --libs $(PKGS)) $$libs"; \
	  echo "TEST_CFLAGS := $$(pkg-config --cflags criterion)"; \
	  echo "TEST_LIBS := $$(pkg-config --libs criterion)"; \
	  echo "HAVE_CUDA := $${cuda:+1}"; \
	  echo "CUDA_HOME := $$cuda"; \
	  echo "CUDA_LIBS := $$libs"; \
	  echo "HAVE_MPI := $$mpi"; \
	  echo "MPI_CFLAGS := $${mpi:+$$(pkg-config --cflags $(MPI_PKG)) -DDALIC_HAVE_MPI}"; \
	  echo "MPI_LIBS := $${mpi:+$$(pkg-config --libs $(MPI_PKG))}"; } > $@.tmp
	@mv $@.tmp $@

CPPFLAGS += $(PKG_CFLAGS)
LDLIBS   := $(PKG_LIBS) $(LDLIBS)

# --- sources -------------------------------------------------------------------------------
OP_SRC     := $(sort $(wildcard kernels/cpu/*/*.c))
KERNEL_SRC := $(OP_SRC) $(sort $(wildcard kernels/common/*.c))
LIB_SRC    := $(sort $(wildcard engine/*.c frontend/*.c frontend/*/*.c frontend/*/*/*.c debugmode/*.c stats/*.c)) $(KERNEL_SRC)
PROTO_SRC  := $(wildcard frontend/proto/*.proto)
PYLIB_SRC  := $(sort $(shell find frontend/script/dali/pylib -name '*.py'))
GEN_SRC    := $(BUILD)/gen/ops_table.c $(BUILD)/gen/pylib_table.c \
              $(PROTO_SRC:frontend/proto/%.proto=$(BUILD)/gen/%.pb-c.c)
CLI_SRC    := $(sort $(wildcard cli/*.c tui/*.c))
CMD_SRC    := $(sort $(wildcard cli/cmd_*.c))
TEST_SRC   := $(sort $(wildcard tests/testlib/*.c tests/unit/*.c tests/integration/*.c tests/tui/*.c))
SAMPLE_SRC := $(sort $(wildcard samples/c/*.c))
CUDA_SRC   := $(if $(HAVE_CUDA),$(sort $(wildcard kernels/cuda/*.cu)))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(patsubst $(BUILD)/%,%,$(1)))
LIB_OBJ    := $(call obj,$(LIB_SRC) $(GEN_SRC))
CLI_OBJ    := $(call obj,$(CLI_SRC) $(BUILD)/gen/commands_table.c)
TEST_OBJ   := $(call obj,$(TEST_SRC))
CUDA_OBJ   := $(patsubst %.cu,$(BUILD)/obj/%.o,$(CUDA_SRC))
SAMPLES    := $(patsubst samples/c/%.c,$(BUILD)/samples/%,$(SAMPLE_SRC))

# (PKG_LIBS in config.mk carries cudart, so scripts that link with PKG_LIBS get it too.)
ifneq ($(HAVE_CUDA),)
CPPFLAGS += -DDALIC_HAVE_CUDA -I$(CUDA_HOME)/include
endif

LIB_A   := $(BUILD)/libdalic.a
LIB_SO  := $(BUILD)/libdalic.so
DALIC   := $(BUILD)/dalic
TESTBIN := $(BUILD)/tests/dalic_tests

.PHONY: all test test-gpu run install clean distclean compdb bench fuzz check-dali audio-samples \
	video-samples
all: $(LIB_A) $(LIB_SO) $(DALIC) $(SAMPLES) $(TESTBIN) $(BUILD)/dalic.pc $(BUILD)/clips/.made

# Every object depends on the configuration (flags, CUDA switch) and waits for the
# generated sources.
$(LIB_OBJ) $(CLI_OBJ) $(TEST_OBJ): $(BUILD)/config.mk | $(GEN_SRC) $(BUILD)/gen/commands_table.c

# The library exports the public API only (DALIC_API in include/); the dalic command and the
# tests link its objects or archive, so they still reach the internals.
$(LIB_OBJ): CFLAGS += -fvisibility=hidden

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# CUDA kernels (docs/gpu.md): one small .cu per operator, for Ampere and Hopper plus PTX that
# later GPUs JIT-compile. WERROR=1 makes every nvcc and host-compiler warning an error.
# (-lstdc++ is in CUDA_LIBS: nvcc's registration code uses the C++ runtime.)
CUDA_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
NVCCFLAGS := -O2 -std=c++17 $(CUDA_ARCH) -DDALIC_HAVE_CUDA -Iinclude -I. \
             -Xcompiler -fPIC,-fvisibility=hidden,-Wall,-Wextra,-Wno-unused-parameter \
             $(if $(WERROR),-Werror all-warnings -Xcompiler -Werror) -MMD -MP
$(CUDA_OBJ): $(BUILD)/config.mk

$(BUILD)/obj/%.o: %.cu
	@mkdir -p $(@D)
	@$(if $(Q),echo "  NVCC    $<")
	$(Q)nvcc $(NVCCFLAGS) -c $< -o $@

# The operator table: every `DALIC_OPERATOR(x)` at the start of a line in kernels/cpu/<family>/
# becomes an entry. The build stops when an operator file declares none, when a helper in
# kernels/common/ declares one, or when a declaration is not where the table looks for it.
$(BUILD)/gen/ops_table.c: $(KERNEL_SRC) Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)for f in $(OP_SRC); do grep -q '^DALIC_OPERATOR(' $$f || \
	  { echo "$$f: an operator file without DALIC_OPERATOR (helpers go to kernels/common/)" >&2; exit 1; }; done; \
	bad=$$(grep -ln 'DALIC_OPERATOR' $(filter kernels/common/%,$(KERNEL_SRC))); \
	[ -z "$$bad" ] || { echo "$$bad: DALIC_OPERATOR in a helper; operators live in kernels/cpu/<family>/" >&2; exit 1; }; \
	n=$$(cat $(OP_SRC) | grep -c 'DALIC_OPERATOR'); m=$$(cat $(OP_SRC) | grep -c '^DALIC_OPERATOR([A-Za-z0-9_]*) = {'); \
	[ "$$n" = "$$m" ] || { grep -n 'DALIC_OPERATOR' $(OP_SRC) | grep -v ':DALIC_OPERATOR([A-Za-z0-9_]*) = {' >&2; \
	  echo "DALIC_OPERATOR must open a line as 'DALIC_OPERATOR(id) = {' for the registry to see it" >&2; exit 1; }
	$(Q){ echo '/* generated by the Makefile from kernels/cpu — do not edit */'; \
	  echo '#include "engine/schema.h"'; \
	  sed -n 's/^DALIC_OPERATOR(\([A-Za-z0-9_]*\)).*/extern const dalic_schema_t dalic_schema_\1;/p' $(OP_SRC); \
	  echo 'const dalic_schema_t *const dalic_builtin_schemas[] = {'; \
	  sed -n 's/^DALIC_OPERATOR(\([A-Za-z0-9_]*\)).*/\t\&dalic_schema_\1,/p' $(OP_SRC); \
	  echo '\tNULL};'; } > $@.tmp && mv $@.tmp $@

# The command table: every `DALIC_COMMAND(x)` in cli/cmd_*.c.
$(BUILD)/gen/commands_table.c: $(CMD_SRC) Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo '/* generated by the Makefile from the cli/cmd_ files; do not edit */'; \
	  echo '#include "cli/cli.h"'; \
	  sed -n 's/^DALIC_COMMAND(\([A-Za-z0-9_]*\)).*/extern const dalic_command_t dalic_command_\1;/p' $(CMD_SRC); \
	  echo 'const dalic_command_t *const dalic_commands[] = {'; \
	  sed -n 's/^DALIC_COMMAND(\([A-Za-z0-9_]*\)).*/\t\&dalic_command_\1,/p' $(CMD_SRC); \
	  echo '\tNULL};'; } > $@.tmp && mv $@.tmp $@

# The embedded Python modules (nvidia.dali.auto_aug): their text as C strings.
$(BUILD)/gen/pylib_table.c: $(PYLIB_SRC) tools/embed_py.sh Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sh tools/embed_py.sh frontend/script/dali/pylib $(PYLIB_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: frontend/proto/%.proto | $(BUILD)/config.mk
	@mkdir -p $(@D)
	@$(if $(Q),echo "  PROTOC  $<")
	$(Q)protoc-c --proto_path=frontend/proto --c_out=$(BUILD)/gen $<

$(LIB_A): $(LIB_OBJ) $(CUDA_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_OBJ) $(CUDA_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libdalic.so.0 $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Linked from the objects (not the archive) so every operator and front end is in.
$(DALIC): $(CLI_OBJ) $(LIB_OBJ) $(CUDA_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB_OBJ) $(CUDA_OBJ) $(LDLIBS) $(MPI_LIBS)

# Only the MPI transport of --ranks sees mpi.h.
$(BUILD)/obj/cli/ranks_mpi.o: CPPFLAGS += $(MPI_CFLAGS)

$(BUILD)/samples/%: samples/c/%.c $(LIB_A) | $(BUILD)/config.mk
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

$(TEST_OBJ): CPPFLAGS += $(TEST_CFLAGS)
# With CUDA the tests check dalic's Philox against libcurand's host generator
# (tests/unit/test_curand_philox.c; it runs on the CPU).
TEST_CUDA_LIBS := $(if $(HAVE_CUDA),-lcurand)
$(TESTBIN): $(TEST_OBJ) $(LIB_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB_A) $(TEST_LIBS) $(TEST_CUDA_LIBS) $(LDLIBS)

# Sample video clips (the test pattern of tests/testlib/video_clip.h) for bench/video_reader.sh
# and the oracle cases.
$(BUILD)/tools/mkclips: tools/mkclips.c $(BUILD)/obj/tests/testlib/video_clip.o | $(BUILD)/config.mk
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/clips/.made: $(BUILD)/tools/mkclips
	@$(if $(Q),echo "  CLIPS   $(@D)")
	$(Q)$< $(@D) && touch $@

$(BUILD)/dalic.pc: Makefile
	@printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: dalic\nDescription: data-loading pipeline engine following NVIDIA DALI semantics\nVersion: %s\nRequires.private: %s\nLibs: -L$${libdir} -ldalic\nLibs.private: -lm -pthread %s\nCflags: -I$${includedir}\n' \
		'$(PREFIX)' '$(VERSION)' '$(PKGS)' '$(CUDA_LIBS)' > $@

# Tests run from the source root; DALIC_BIN and DALIC_SAMPLES let them drive the binaries.
# Criterion aborts at start-up under TSan (its issue #274), so SANITIZE=thread runs the
# threaded suites through tests/unit/tsan/ instead.
ifneq ($(filter thread,$(subst $(comma), ,$(SANITIZE))),)
test: $(LIB_A)
	$(Q)sh tests/unit/tsan/run.sh 'exec*/*'
else
# (the sample scripts run by the tests include speech.py, over build/audio, and video.py,
# over build/video)
test: all audio-samples video-samples
	$(Q)DALIC_BIN=$(abspath $(DALIC)) DALIC_SAMPLES=$(abspath $(BUILD)/samples) \
		LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp) \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(TESTBIN) --jobs 2 $(TESTFLAGS)
endif

# The main job: the workbench on the sample image pipeline (`dalic run` without a terminal).
RUN_PIPELINE ?= samples/scripts/getting_started.py
run: all
	$(Q)if [ -t 1 ]; then $(DALIC) tui $(RUN_PIPELINE); else $(DALIC) run $(RUN_PIPELINE) -n 20; fi

# The kernels on a real GPU against the CPU operators (tests/gpu/; docs/gpu.md). Without CUDA
# or a GPU the program says so and exits 0; `make test` checks the same kernel bodies on the
# CPU grid runner (suites cuda_*).
GPU_CHECK_SRC := $(sort $(wildcard tests/gpu/*.c))
GPU_CHECK     := $(BUILD)/tests/gpu_check
$(call obj,$(GPU_CHECK_SRC)): $(BUILD)/config.mk
$(GPU_CHECK): $(call obj,$(GPU_CHECK_SRC) tests/testlib/cuda_grid.c) $(LIB_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
test-gpu: $(GPU_CHECK)
	$(Q)$(GPU_CHECK)

# Speech-like clips for samples/scripts/speech.py (WAV, FLAC, OGG in build/audio/speech/).
audio-samples: build/audio/speech/clip_00.wav
build/audio/speech/clip_00.wav: | $(BUILD)/samples/make_audio
	$(Q)mkdir -p build/audio && $(BUILD)/samples/make_audio build/audio/speech

# Video clips for samples/scripts/video.py (tools/mkclips' set in build/video/clips/).
video-samples: build/video/clips/.made
build/video/clips/.made: | $(BUILD)/tools/mkclips
	$(Q)mkdir -p build/video/clips && $(BUILD)/tools/mkclips build/video/clips && touch $@

# The oracle suite against real NVIDIA DALI from PyPI (not part of `test`: it downloads ~200 MB).
check-dali: all
	$(Q)sh tests/dali/check.sh

# Benchmarks print ratios to a reference measured in the same run (never timed tests).
bench: all
	$(Q)for s in bench/*.sh; do echo "== $$s"; sh $$s || exit 1; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(DALIC) $(DESTDIR)$(PREFIX)/bin/dalic
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/libdalic.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/libdalic.so.0
	ln -sf libdalic.so.0 $(DESTDIR)$(PREFIX)/lib/libdalic.so
	install -m 644 include/dalic*.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/dalic.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/dalic.pc

compdb:
	$(Q)sh tools/compdb.sh "$(CC) $(CPPFLAGS) $(CFLAGS)" $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) > compile_commands.json

clean:
	rm -rf build/$(VARIANT)

distclean:
	rm -rf build compile_commands.json

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
