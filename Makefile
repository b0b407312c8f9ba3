# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov — build, test, demo. `make` builds build/wbsim; `make check` runs every test.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
# warnings are errors here and in CI; a distribution's build (debian/rules)
# sets WERROR= so that a newer compiler's new warning does not fail it
WERROR  ?= -Werror
WARN     = -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wformat=2 -Wvla
CPPFLAGS += -std=c11 -D_GNU_SOURCE -Isrc
# jansson writes every JSON output (wbsim's, wbgov's)
LDLIBS  += -ljansson -lm

MODEL_SRC  := $(wildcard src/model/*.c)
POLICY_SRC := $(wildcard src/policy/*.c)
KNOBS_SRC  := $(wildcard src/knobs/*.c)
SIM_SRC    := $(wildcard src/sim/*.c)
LAB_SRC    := $(wildcard src/lab/*.c)
LIB_SRC    := $(MODEL_SRC) $(POLICY_SRC) $(KNOBS_SRC) $(SIM_SRC) $(LAB_SRC)
# the built-in scenarios, in `wbsim list` order, compiled in from
# scenarios/NAME.scenario (scripts/embed-scenarios.sh)
SCENARIOS  := usb-iso usb-git-clone fsync-behind-slow tempfiles streaming-fast 32-vs-64 mixed \
              slc-cliff cold-unknown fast-beside-stick
SCEN_FILES := $(SCENARIOS:%=scenarios/%.scenario)
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/scenarios.o
# the real system, the daemon's glue and wbgov's commands: only wbgovd, wbgov
# and their tests link it (libinih, libudev, libblkid, libmount, libsystemd for sd-bus)
SYS_SRC    := $(wildcard src/sys/*.c) $(wildcard src/daemon/*.c) $(wildcard src/cli/*.c)
SYS_OBJ    := $(SYS_SRC:%.c=$(BUILD)/%.o)
SYS_LIBS   := -linih -ludev -lblkid -lmount -lsystemd

UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all analyze check check-build check-pkg check-system demo fuzz fuzz-bins clean install man mo pot uninstall
all: $(BUILD)/wbsim $(BUILD)/wbgovd $(BUILD)/wbgov
.SECONDARY:

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

$(BUILD)/gen/scenarios.c: $(SCEN_FILES) scripts/embed-scenarios.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-scenarios.sh $(SCEN_FILES) >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/scenarios.o: $(BUILD)/gen/scenarios.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

$(BUILD)/libwbgov.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libwbgovsys.a: $(SYS_OBJ)
	@rm -f $@
	ar rcs $@ $^

# wbsim reads wbgov.conf through wbgovd's reader (sys/conffile.c, libinih),
# which checks wbgovd's own keys without sd-bus (sys/busname.c): a simulator
# that needs no libsystemd, libudev, libblkid or libmount
$(BUILD)/wbsim: $(BUILD)/src/cmd/wbsim.o $(BUILD)/libwbgovsys.a $(BUILD)/libwbgov.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -linih $(LDLIBS)

$(BUILD)/wbgovd: $(BUILD)/src/cmd/wbgovd.o $(BUILD)/libwbgovsys.a $(BUILD)/libwbgov.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(SYS_LIBS) $(LDLIBS)

$(BUILD)/wbgov: $(BUILD)/src/cmd/wbgov.o $(BUILD)/libwbgovsys.a $(BUILD)/libwbgov.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(SYS_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libwbgovsys.a $(BUILD)/libwbgov.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(SYS_LIBS) $(LDLIBS)

# test_policy runs the governor out of memory: its reallocarray is the test's
$(BUILD)/tests/test_policy: LDFLAGS += -Wl,--wrap=reallocarray

# tests/cli's LD_PRELOAD shim (syncfs and fsync that hang): plain flags, so
# that it loads into a sanitized wbgovd and the programs that start it
$(BUILD)/tests/hang.so: tests/lib/hang.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 $(WARN) -o $@ $<

# check: every unit and black-box test, the machine left alone; the
# real-kernel tests too with SYSTEM=yes (the default under CI=true);
# check-system: them too (root, a write throttle; they change the machine's
# knobs, loop devices and throttles for a while and give everything back)
check: all $(UNIT_BIN) $(BUILD)/tests/hang.so
	@BUILD=$(BUILD) SYSTEM=$(SYSTEM) sh tests/run.sh

# check-build: what check runs, built and not run (CI builds first, then
# runs the real-kernel tests, SYSTEM=only, beside the other tests)
check-build: all $(UNIT_BIN) $(BUILD)/tests/hang.so

check-system: all $(UNIT_BIN) $(BUILD)/tests/hang.so
	@BUILD=$(BUILD) SYSTEM=yes sh tests/run.sh

# check-pkg: the Debian package built (from a copy of the tree), lintian,
# installed, removed with wbgovd running, purged: root, system-wide, minutes
check-pkg:
	@sh tests/pkg/deb.sh

demo: all
	@sh scripts/demo.sh $(BUILD)

# make analyze: clang's static analyzer over every source file, two at a
# time; any warning fails it
analyze:
	@mkdir -p $(BUILD)
	@ls src/*/*.c | xargs -P 2 -n 1 sh -c 'clang --analyze $(CPPFLAGS) -Xanalyzer -analyzer-output=text "$$0" -o /dev/null 2>&1' >$(BUILD)/analyze.txt; \
	n=$$(grep -c "warning:" $(BUILD)/analyze.txt); \
	if [ "$$n" -ne 0 ]; then cat $(BUILD)/analyze.txt; echo "tests: 0 passed, 1 failed"; exit 1; fi; \
	echo "analyze: $$(ls src/*/*.c | wc -l) files, no warning"; echo "tests: 1 passed, 0 failed"

# make fuzz: every parser (tests/fuzz/fuzz_*.c) under libFuzzer with ASan and
# UBSan, FUZZ_SECONDS each (default 60), two at a time, in build-fuzz (clang)
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 60
$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(BUILD)/libwbgovsys.a $(BUILD)/libwbgov.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDFLAGS) $(SYS_LIBS) $(LDLIBS)

fuzz-bins: $(FUZZ_BIN)

fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-bins
	@sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Man pages: man/NAME.N.scd -> $(BUILD)/man/NAME.N through scdoc; N is the
# section. Separate from `all` so building needs no scdoc. The date in the
# page is the last commit's, so a rebuild of the same tree gives the same page.
SCDOC     ?= scdoc
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
# The unit goes where systemd looks for PREFIX (/usr/local/lib/systemd/system
# is on its search path); for PREFIX=/usr where this system's systemd.pc
# says (Debian 12: /lib/systemd/system, the only place its debhelper looks;
# Debian 13: /usr/lib/systemd/system), /usr/lib/systemd/system without one.
# The config path is not PREFIX-relative: wbgovd and wbgov read
# /etc/wbgov/wbgov.conf by default, wherever they are installed.
SYSTEMDUNITDIR := $(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/usr/lib/systemd/system)
UNITDIR   ?= $(if $(filter /usr,$(PREFIX)),$(SYSTEMDUNITDIR),$(PREFIX)/lib/systemd/system)
# Shell completions where bash-completion, zsh (Debian's vendor directory)
# and fish look for PREFIX. bash-completion and fish load a command's file
# by its name: wbgovd and wbsim are links to bash's one file; fish has one
# each.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
CONF      := /etc/wbgov/wbgov.conf
# The D-Bus policy goes where dbus-daemon reads it: Debian's reads
# /usr/share/dbus-1/system.d and /etc/dbus-1/system.d, not
# /usr/local/share/dbus-1/system.d; so /usr/share for PREFIX=/usr, /etc
# (the administrator's place) for any other PREFIX.
DBUSPOLICYDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/share/dbus-1/system.d,/etc/dbus-1/system.d)
# The D-Bus API's introspection files, one per interface, where D-Bus
# keeps them for client developers (gdbus-codegen, qdbusxml2cpp)
DBUSIFACEDIR ?= $(PREFIX)/share/dbus-1/interfaces
DBUSIFACES := io.github.wbgov.Governor1.Manager.xml io.github.wbgov.Governor1.Device.xml
# The polkit action of Sync: polkitd reads /usr/share/polkit-1/actions and
# no other place (compiled in), so there whatever PREFIX, as the config is
# in /etc
POLKITACTIONDIR ?= /usr/share/polkit-1/actions
# XDG autostart (wbgov notify in every desktop session): $XDG_CONFIG_DIRS,
# /etc/xdg unless a session says otherwise
SYSCONFDIR ?= /etc
AUTOSTARTDIR ?= $(SYSCONFDIR)/xdg/autostart
# The application entry wbgov notify's notifications name (their
# "desktop-entry" hint): $XDG_DATA_DIRS/applications, which holds
# /usr/local/share and /usr/share unless a session says otherwise
APPLICATIONSDIR ?= $(PREFIX)/share/applications
BIN_PROGS := wbsim wbgovd wbgov
# Translations (gettext): po/LANG.po -> $(BUILD)/locale/LANG/LC_MESSAGES/
# wbgov.mo through msgfmt, installed in LOCALEDIR, which wbgov is built
# with: build and install with the same PREFIX (debian/rules does).
# Separate from `all` so building needs no gettext. `make pot`: the
# template po/wbgov.pot from the sources again (xgettext; no line numbers,
# so that code moving within a file changes nothing) and every po/LANG.po
# merged with it (msgmerge), in PODIR (default po; tests/cli/po.sh makes
# them elsewhere and compares).
PODIR     ?= po
LOCALEDIR ?= $(PREFIX)/share/locale
LINGUAS   := de
MO_FILES  := $(LINGUAS:%=$(BUILD)/locale/%/LC_MESSAGES/wbgov.mo)
POT_SRC   := src/cmd/wbgov.c $(wildcard src/cli/*.c) src/policy/decide.c
XGETTEXT_FLAGS := --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=cli_bad:1 \
	--keyword=ngettext:1,2 --add-comments=TRANSLATORS: --add-location=file --sort-by-file \
	--package-name=wbgov --package-version=0.1 --copyright-holder="wbgov maintainers" \
	--msgid-bugs-address=maintainers@users.noreply.a-seed-8deb690b.example
MAN_SRC   := $(wildcard man/*.scd)
MAN_PAGES := $(MAN_SRC:man/%.scd=$(BUILD)/man/%)

man: $(MAN_PAGES)
check check-system check-build: man

$(BUILD)/src/cmd/wbgov.o: CPPFLAGS += -DLOCALEDIR='"$(LOCALEDIR)"'

mo: $(MO_FILES)
check check-system check-build: mo

$(BUILD)/locale/%/LC_MESSAGES/wbgov.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@.tmp $< && mv $@.tmp $@

pot:
	xgettext $(XGETTEXT_FLAGS) -o $(PODIR)/wbgov.pot $(POT_SRC)
	@set -e; for l in $(LINGUAS); do \
		[ po/$$l.po -ef $(PODIR)/$$l.po ] || cp po/$$l.po $(PODIR)/$$l.po; \
		echo "msgmerge --update $(PODIR)/$$l.po $(PODIR)/wbgov.pot"; \
		msgmerge --quiet --update --backup=none $(PODIR)/$$l.po $(PODIR)/wbgov.pot; \
	done

$(BUILD)/man/%: man/%.scd
	@mkdir -p $(dir $@)
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || date +%s)} \
		$(SCDOC) <$< >$@.tmp && mv $@.tmp $@

install: all man mo
	install -d '$(DESTDIR)$(BINDIR)'
	install -m 755 $(BIN_PROGS:%=$(BUILD)/%) '$(DESTDIR)$(BINDIR)/'
	@set -e; for p in $(MAN_PAGES); do \
		d='$(DESTDIR)$(MANDIR)'/man$${p##*.}; \
		echo "install -m 644 $$p $$d/"; \
		install -d "$$d"; \
		install -m 644 "$$p" "$$d/"; \
	done
	install -d '$(DESTDIR)$(UNITDIR)'
	sed 's|^ExecStart=/usr/local/bin/wbgovd$$|ExecStart=$(BINDIR)/wbgovd|' etc/wbgovd.service \
		>'$(DESTDIR)$(UNITDIR)/wbgovd.service'
	chmod 644 '$(DESTDIR)$(UNITDIR)/wbgovd.service'
	install -d '$(DESTDIR)$(BASHCOMPDIR)' '$(DESTDIR)$(ZSHCOMPDIR)' '$(DESTDIR)$(FISHCOMPDIR)'
	install -m 644 etc/completions/wbgov.bash '$(DESTDIR)$(BASHCOMPDIR)/wbgov'
	ln -sf wbgov '$(DESTDIR)$(BASHCOMPDIR)/wbgovd'
	ln -sf wbgov '$(DESTDIR)$(BASHCOMPDIR)/wbsim'
	install -m 644 etc/completions/_wbgov '$(DESTDIR)$(ZSHCOMPDIR)/_wbgov'
	install -m 644 $(BIN_PROGS:%=etc/completions/%.fish) '$(DESTDIR)$(FISHCOMPDIR)/'
	@grep -qx 'ExecStart=$(BINDIR)/wbgovd' '$(DESTDIR)$(UNITDIR)/wbgovd.service' || \
		{ echo "wbgovd.service: ExecStart was not rewritten to $(BINDIR)/wbgovd" >&2; exit 1; }
	install -d '$(DESTDIR)$(DBUSPOLICYDIR)' '$(DESTDIR)$(AUTOSTARTDIR)'
	install -m 644 etc/dbus/io.github.wbgov.Governor1.conf '$(DESTDIR)$(DBUSPOLICYDIR)/'
	install -d '$(DESTDIR)$(DBUSIFACEDIR)' '$(DESTDIR)$(POLKITACTIONDIR)'
	install -m 644 $(DBUSIFACES:%=etc/dbus/%) '$(DESTDIR)$(DBUSIFACEDIR)/'
	install -m 644 etc/polkit/io.github.wbgov.Governor1.policy '$(DESTDIR)$(POLKITACTIONDIR)/'
	sed 's|^Exec=/usr/local/bin/wbgov notify$$|Exec=$(BINDIR)/wbgov notify|' etc/xdg/wbgov-notify.desktop \
		>'$(DESTDIR)$(AUTOSTARTDIR)/wbgov-notify.desktop'
	chmod 644 '$(DESTDIR)$(AUTOSTARTDIR)/wbgov-notify.desktop'
	@grep -qx 'Exec=$(BINDIR)/wbgov notify' '$(DESTDIR)$(AUTOSTARTDIR)/wbgov-notify.desktop' || \
		{ echo "wbgov-notify.desktop: Exec was not rewritten to $(BINDIR)/wbgov" >&2; exit 1; }
	@set -e; for l in $(LINGUAS); do \
		d='$(DESTDIR)$(LOCALEDIR)'/$$l/LC_MESSAGES; \
		echo "install -m 644 $(BUILD)/locale/$$l/LC_MESSAGES/wbgov.mo $$d/"; \
		install -d "$$d"; \
		install -m 644 $(BUILD)/locale/$$l/LC_MESSAGES/wbgov.mo "$$d/"; \
	done
	@grep -qaF '$(LOCALEDIR)' $(BUILD)/wbgov || \
		echo "warning: $(BUILD)/wbgov was built for another LOCALEDIR than $(LOCALEDIR) (PREFIX): it will not find its translations; rebuild with the same PREFIX" >&2
	install -d '$(DESTDIR)$(APPLICATIONSDIR)'
	sed 's|^Exec=/usr/local/bin/wbgov notify$$|Exec=$(BINDIR)/wbgov notify|' etc/applications/wbgov-notify.desktop \
		>'$(DESTDIR)$(APPLICATIONSDIR)/wbgov-notify.desktop'
	chmod 644 '$(DESTDIR)$(APPLICATIONSDIR)/wbgov-notify.desktop'
	@grep -qx 'Exec=$(BINDIR)/wbgov notify' '$(DESTDIR)$(APPLICATIONSDIR)/wbgov-notify.desktop' || \
		{ echo "applications/wbgov-notify.desktop: Exec was not rewritten to $(BINDIR)/wbgov" >&2; exit 1; }
# an existing configuration is the administrator's: never overwrite it
	@if [ -e '$(DESTDIR)$(CONF)' ]; then \
		echo "keeping $(DESTDIR)$(CONF)"; \
	else \
		echo "install -m 644 etc/wbgov.conf $(DESTDIR)$(CONF)"; \
		install -d '$(DESTDIR)$(dir $(CONF))' && \
		install -m 644 etc/wbgov.conf '$(DESTDIR)$(CONF)'; \
	fi

uninstall:
	rm -f $(BIN_PROGS:%='$(DESTDIR)$(BINDIR)'/%)
	@set -e; for p in $(MAN_SRC:man/%.scd=%); do \
		echo "rm -f '$(DESTDIR)$(MANDIR)'/man$${p##*.}/$$p"; \
		rm -f '$(DESTDIR)$(MANDIR)'/man$${p##*.}/"$$p"; \
	done
# the configuration stays: it may hold the administrator's edits
	rm -f '$(DESTDIR)$(UNITDIR)/wbgovd.service'
	rm -f $(BIN_PROGS:%='$(DESTDIR)$(BASHCOMPDIR)'/%) '$(DESTDIR)$(ZSHCOMPDIR)/_wbgov' \
		$(BIN_PROGS:%='$(DESTDIR)$(FISHCOMPDIR)'/%.fish)
	rm -f '$(DESTDIR)$(DBUSPOLICYDIR)/io.github.wbgov.Governor1.conf' '$(DESTDIR)$(AUTOSTARTDIR)/wbgov-notify.desktop'
	rm -f '$(DESTDIR)$(APPLICATIONSDIR)/wbgov-notify.desktop'
	rm -f $(LINGUAS:%='$(DESTDIR)$(LOCALEDIR)'/%/LC_MESSAGES/wbgov.mo)
	rm -f $(DBUSIFACES:%='$(DESTDIR)$(DBUSIFACEDIR)'/%) '$(DESTDIR)$(POLKITACTIONDIR)/io.github.wbgov.Governor1.policy'
