# wbgov — build, test, demo. `make` builds build/wbsim; `make check` runs every test.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wformat=2 -Wvla
CPPFLAGS += -std=c11 -D_GNU_SOURCE -Isrc
LDLIBS  += -lm

MODEL_SRC  := $(wildcard src/model/*.c)
POLICY_SRC := $(wildcard src/policy/*.c)
KNOBS_SRC  := $(wildcard src/knobs/*.c)
SIM_SRC    := $(wildcard src/sim/*.c)
LAB_SRC    := $(wildcard src/lab/*.c)
LIB_SRC    := $(MODEL_SRC) $(POLICY_SRC) $(KNOBS_SRC) $(SIM_SRC) $(LAB_SRC)
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o)

UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check demo clean install man
all: $(BUILD)/wbsim

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

$(BUILD)/libwbgov.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/wbsim: $(BUILD)/src/cmd/wbsim.o $(BUILD)/libwbgov.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libwbgov.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)

check: all $(UNIT_BIN)
	@BUILD=$(BUILD) sh tests/run.sh

demo: all
	@sh tests/demo.sh $(BUILD)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
