# The two commands people need: `make serve` (learn) and `make test` (check everything).
# Both install what is missing first, on a fresh Debian machine as on a developer's.

VENV    := .venv
BIN     := $(VENV)/bin
PYTHON  ?= python3
PORT    ?= 8000
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# silences mkdocs-material's end-of-life banner, printed on every build
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup regrade-setup build build-zensical serve dev test lint format bench browsers

setup: $(VENV)/.installed node_modules/.installed browsers

# the stamps make a second `make` skip installs until a pinned list changes
$(VENV)/.installed: requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# what `python -m grader regrade` and `gradescope` need, and nothing more: Node.js (20.19 or
# newer) is the instructor's; this installs Pyodide, SES (self-contained files) and uPlot
# (`regrade --report`'s charts) from npm, without the site's other packages, and tqdm and
# PyYAML (the course's settings), at the versions the lock files pin
REGRADE_NPM := pyodide ses uplot
regrade-setup:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check \
		$$(grep -E '^(tqdm|PyYAML)==' requirements.txt)
	for name in $(REGRADE_NPM); do \
		version=$$(node -p "require('./package.json').dependencies['$$name']") && \
		packed=node_modules/$$name/$$name-$$version.tgz && \
		mkdir -p node_modules/$$name && \
		(cd node_modules/$$name && npm pack --silent $$name@$$version >/dev/null) && \
		node -e "$$CHECK_PACKED" $$name $$packed && \
		tar -xzf $$packed -C node_modules/$$name --strip-components=1 && rm $$packed || exit 1; \
	done

# the packed tarball's SHA-512 must be package-lock.json's
define CHECK_PACKED
const [name, file] = process.argv.slice(1);
const locked = require("./package-lock.json").packages["node_modules/" + name].integrity;
const bytes = require("fs").readFileSync(file);
const found = "sha512-" + require("crypto").createHash("sha512").update(bytes).digest("base64");
if (found !== locked) { console.error(file + " is not the one package-lock.json pins"); process.exit(1); }
endef
export CHECK_PACKED

# site_tests drive Debian's browsers (Playwright's own downloads cannot work here): Chromium's
# headless shell, Firefox ESR, and WebKitGTK's MiniBrowser through its WebDriver on a virtual
# screen (Xvfb); the benchmark times the full Chromium, the browser a learner has
BROWSERS := chromium:chromium chromium-headless-shell:chromium-headless-shell firefox-esr:firefox-esr \
	WebKitWebDriver:webkit2gtk-driver Xvfb:xvfb
browsers:
	@missing="$$(for pair in $(BROWSERS); do command -v $${pair%%:*} >/dev/null || echo $${pair#*:}; done)"; \
	if [ -n "$$missing" ]; then \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

build: $(VENV)/.installed node_modules/.installed
	$(BIN)/mkdocs build --strict

# the same docs/ and mkdocs.yml built by Zensical, which runs no plugin: the site step after it
build-zensical: $(VENV)/.installed node_modules/.installed
	$(BIN)/zensical build --clean
	$(BIN)/python -m course.site

serve: build
	$(BIN)/python -m devtools.serve --port $(PORT)

# the author's loop: rebuilds and reloads the browser when docs/, exercises/, grader/ or widget/ change
dev: $(VENV)/.installed node_modules/.installed
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:$(PORT)

test: setup lint
	node --test tests/widget/
	$(BIN)/pytest tests/ --numprocesses auto --durations 10  # pytest-xdist: one process per core
	$(MAKE) --no-print-directory build
	$(BIN)/pytest site_tests/ --durations 15  # one browser at a time: WebKit's microgpt hit the 5 s limit beside another

# formatting and lint rules: ruff for Python; ESLint and Prettier for JavaScript and CSS
JS_FILES := "widget/**/*.{js,css}" "tests/**/*.mjs" "bench/**/*.{js,mjs}" "course/**/*.mjs" "runner/**/*.mjs" \
	"site_tests/**/*.{js,mjs}" "bytecode/**/*.mjs" "*.js"
lint: $(VENV)/.installed node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node_modules/.bin/eslint .
	node_modules/.bin/prettier --check --log-level warn $(JS_FILES)

# writes what `lint` checks
format: $(VENV)/.installed node_modules/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	node_modules/.bin/prettier --write --log-level warn $(JS_FILES)

# not part of `test`: performance is measured and printed, never asserted (see bench/run.py)
bench: setup
	$(BIN)/python bench/run.py
