# SPDX-License-Identifier: GPL-3.0-or-later
# install.mk - make install, uninstall, dist and deb (docs/install.md),
# included by the Makefile.  PREFIX (/usr/local) and DESTDIR as usual; each
# directory below may be set on its own.

BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/dbench-ng
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

# tbench's two programs are dbench-ng under other names (argv[0]):
# tbench-ng and tbench-ng-srv, which do not clash with Debian's dbench
# package (/usr/bin/tbench, /usr/bin/tbench_srv)
INST_LINKS := tbench-ng tbench-ng-srv
INST_BINS  := $(PROG) $(if $(MPI_FOUND),$(MPI_PROG))
# names that share dbench-ng's man page and completion file
INST_ALIAS := $(INST_LINKS) $(if $(MPI_FOUND),$(MPI_PROG))
INST_DOCS  := README.md NEWS.md
INST_MDS   := $(notdir $(wildcard docs/*.md))
INST_EXAMPLES := loadfiles/netbench.load loadfiles/README.md

.PHONY: install uninstall dist deb

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DOCDIR)/docs \
		$(DESTDIR)$(DOCDIR)/examples
	install -m 755 $(INST_BINS) $(DESTDIR)$(BINDIR)/
	$(foreach l,$(INST_LINKS),ln -sf $(PROG) $(DESTDIR)$(BINDIR)/$(l) &&) true
	install -m 644 docs/dbench-ng.1 $(DESTDIR)$(MANDIR)/man1/
	$(foreach a,$(INST_ALIAS),echo '.so man1/dbench-ng.1' \
		>$(DESTDIR)$(MANDIR)/man1/$(a).1 &&) true
	install -m 644 completion/dbench-ng.bash $(DESTDIR)$(BASHCOMPDIR)/dbench-ng
	$(foreach a,$(INST_ALIAS),ln -sf dbench-ng $(DESTDIR)$(BASHCOMPDIR)/$(a) &&) true
	install -m 644 $(INST_DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 644 $(addprefix docs/,$(INST_MDS)) $(DESTDIR)$(DOCDIR)/docs/
	install -m 644 $(INST_EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/

# removes what install made (dbench-ng-mpi's files whether or not this
# build has it) and the directories of DOCDIR once empty; nothing else
uninstall:
	rm -f $(foreach f,$(PROG) $(MPI_PROG) $(INST_LINKS),$(DESTDIR)$(BINDIR)/$(f)) \
		$(foreach f,$(PROG) $(MPI_PROG) $(INST_LINKS),$(DESTDIR)$(MANDIR)/man1/$(f).1 \
		$(DESTDIR)$(BASHCOMPDIR)/$(f)) \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(INST_DOCS)) \
		$(addprefix $(DESTDIR)$(DOCDIR)/docs/,$(INST_MDS)) \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(notdir $(INST_EXAMPLES)))
	-rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(DOCDIR) 2>/dev/null

# the source tarball DIST_DIR/dbench-ng-VERSION.tar.gz: the files git
# tracks, as they are in the work tree, and the file VERSION that
# scripts/version.sh reads where there is no git
DIST     := dbench-ng-$(VERSION)
DIST_DIR ?= build
dist:
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo \
		"make dist: needs the git tree (this one has no git)" >&2; exit 2; }
	rm -rf $(DIST_DIR)/$(DIST).stage && mkdir -p $(DIST_DIR)/$(DIST).stage/$(DIST)
	git ls-files -z | tar --null -T - -cf - | \
		tar -C $(DIST_DIR)/$(DIST).stage/$(DIST) -xf -
	echo '$(VERSION) $(COMMIT)' > $(DIST_DIR)/$(DIST).stage/$(DIST)/VERSION
	tar -C $(DIST_DIR)/$(DIST).stage --owner=0 --group=0 --numeric-owner \
		--sort=name -czf $(DIST_DIR)/$(DIST).tar.gz $(DIST)
	rm -rf $(DIST_DIR)/$(DIST).stage
	@echo "make dist: $(DIST_DIR)/$(DIST).tar.gz"

# the Debian packages, built from that tarball in DEB_DIR (so that
# nothing is written beside the work tree; it removes only its own
# files there), then lintian when installed: an error or a warning fails
DEB_DIR   ?= build/deb
DEB_FLAGS ?= -us -uc -b -jauto
deb: dist
	rm -rf $(DEB_DIR)/$(DIST) $(DEB_DIR)/dbench-ng*_* && mkdir -p $(DEB_DIR)
	tar -C $(DEB_DIR) -xzf $(DIST_DIR)/$(DIST).tar.gz
	cd $(DEB_DIR)/$(DIST) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		dpkg-buildpackage $(DEB_FLAGS)
	@if command -v lintian >/dev/null; then \
		echo "lintian $(DEB_DIR)/dbench-ng_*.changes"; \
		lintian --fail-on error,warning $(DEB_DIR)/dbench-ng_*.changes; fi
	@ls $(DEB_DIR)/*.deb
