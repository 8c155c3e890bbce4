# Joryio Swift SDK: every command a developer or CI runs.
# `make demo` and `make test` are the two commands in the README; both install missing system
# libraries first (Debian/Ubuntu), so they work on a fresh machine.

SWIFT ?= swift
PYTHON ?= python3
STRICT = --explicit-target-dependency-import-check error -Xswiftc -warnings-as-errors -Xswiftc -require-explicit-sendable
APT_PACKAGES = libsqlite3-dev libcurl4-openssl-dev zlib1g-dev pkg-config
# Tests and the demo talk to the sandbox on loopback only; never route that through a proxy.
export NO_PROXY := 127.0.0.1,localhost,::1
export no_proxy := 127.0.0.1,localhost,::1
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: consumer deps deps-browser generate-previews build test test-swift test-unit test-browser test-sandbox-swift test-sandbox test-crash test-tsan demo bench fuzz fuzz-build fuzz-smoke fuzz-replay lint format generate check-generated check-rules check-required-reason check-podspec check-pod-module check-nse check-apple docs clean

## deps: install the system libraries the package links (sqlite3, libcurl, zlib) when missing.
deps:
	@if pkg-config --exists sqlite3 libcurl zlib 2>/dev/null; then :; else \
		echo "Installing system libraries: $(APT_PACKAGES)"; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y $(APT_PACKAGES); \
	fi

## deps-browser: Debian's chromium for the browser lane and the campaign previews (issue 17), when no
## Chromium is on PATH. If it cannot be installed, the lane's suites skip with a message saying so.
## The names HeadlessChromium.candidateNames (Tools/Browser) looks for on PATH.
BROWSER_NAMES = chromium chromium-browser google-chrome google-chrome-stable
deps-browser:
	@found="$$JORYIO_CHROMIUM"; for b in $(BROWSER_NAMES); do command -v $$b >/dev/null && found=$$b; done; \
	if [ -n "$$found" ]; then :; else \
		echo "Installing chromium (the browser lane)"; \
		( $(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends chromium fonts-liberation ) || \
		echo "warning: chromium could not be installed; the browser lane's suites will be skipped"; \
	fi

## build: compile everything, tests included, with warnings as errors.
build: deps
	$(SWIFT) build --build-tests $(STRICT)

## test: the sandbox backend's own tests, then both lanes of Swift tests over one build, and the proof
## that the Notification Service Extension product depends on nothing (check-nse, about 10 s).
test: deps test-sandbox build test-swift check-nse

## test-sandbox: the Python sandbox backend's own tests.
test-sandbox:
	$(PYTHON) -m unittest discover -s Tools/sandbox/tests -t Tools/sandbox

## The two lanes of Swift tests, run from the build `make build` made (`--skip-build`).
## Sandbox tests carry the `.sandbox` tag and live in suites whose type name starts with `Sandbox`
## (Tests/Lanes/SandboxLane.swift checks both). `swift test` 6.3 cannot select tests by tag, so the
## lanes select them by that name: SANDBOX_TESTS is a regular expression over test IDs
## (`<Target>.<Suite>/<test>`).
SANDBOX_TESTS = ^Joryio[A-Za-z]*Tests\.Sandbox
## The browser lane: Tests/JoryioBrowserTests, HTML in-app documents in headless Chromium.
BROWSER_TESTS = ^JoryioBrowserTests\.

## The tests' scratch files (SQLite databases, queue files in per-test temporary directories) go to a
## fresh directory in RAM when the machine has one (/dev/shm on Linux), removed afterwards: their
## fsyncs then cost nothing, whatever else is using the disk (on a busy 2-core box that is most of
## the unit lane's time otherwise).
TEST_TMP_ROOT := $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $${TMPDIR:-/tmp})
SWIFT_TEST_LANE = dir=$$(mktemp -d "$(TEST_TMP_ROOT)/joryio-tests.XXXXXX") && \
	TMPDIR="$$dir" $(SWIFT) test --skip-build
## $(call SWIFT_LANE,<swift test arguments>): one lane in its own scratch directory, removed afterwards
## whatever the outcome.
SWIFT_LANE = $(SWIFT_TEST_LANE) $(1); status=$$?; rm -rf "$$dir"; exit $$status

## test-unit: every Swift test except the sandbox lane: virtual time and in-process doubles only.
test-unit: build
	@$(call SWIFT_LANE,--skip '$(SANDBOX_TESTS)' --skip '$(BROWSER_TESTS)')

## test-browser: the browser lane (issue 17): every hostile and wired HTML fixture, the policy and a
## sample of the document fuzz, loaded in headless Chromium (installed by deps-browser), asserting on
## what the bridge posted and the CSP violations the browser reported. About 30 s on 2 cores.
test-browser: build deps-browser
	@$(call SWIFT_LANE,--filter '$(BROWSER_TESTS)')

## test-sandbox-swift: the Swift tests that start the Python sandbox (real HTTP on 127.0.0.1).
test-sandbox-swift: build
	@$(call SWIFT_LANE,--filter '$(SANDBOX_TESTS)')

## test-crash: the issue-12 crash test alone (SandboxCrashTests, sandbox lane): a child process
## (joryio-crash-child, Tools/CrashChild) tracking against the sandbox with faults on is killed with
## SIGKILL at JORYIO_CRASH_KILLS random instants (default 200), restarted on the same storage each time,
## then drained; every event whose track() returned must arrive, none twice. JORYIO_CRASH_SEED=<seed>
## replays a run's choices (the seed is in the failure message). `make test` runs it too (200 kills).
JORYIO_CRASH_KILLS ?= 200
test-crash: build
	@export JORYIO_CRASH_KILLS=$(JORYIO_CRASH_KILLS); \
	$(call SWIFT_LANE,--filter '^JoryioIntegrationTests\.SandboxCrashTests')

## test-swift: every lane of Swift tests.
test-swift: test-unit test-browser test-sandbox-swift

## test-tsan: every Swift test (both lanes: the scheduler, ExecutorBound and Locked, the libcurl worker
## pool, SQLite and file storage, the engine, and the sandbox suites over real HTTP) built with
## ThreadSanitizer and the strict flags, in its own scratch path (.build/tsan) so the normal build
## cache is kept. Any TSan report fails the run (the test process exits 66). There is no suppression
## file: the suite runs clean. The browser lane is left out (it only waits for Chromium processes) and
## the crash test kills its instrumented child 25 times instead of 200 (SandboxCrashTests). About 2.5 min cold, 30 s warm on 2 cores (docs/decisions.md).
TSAN = --sanitize=thread --scratch-path .build/tsan
test-tsan: deps
	$(SWIFT) build --build-tests $(TSAN) $(STRICT)
	@export JORYIO_TSAN=1; $(call SWIFT_LANE,$(TSAN) --skip '$(BROWSER_TESTS)')

## demo: start the local sandbox backend and drive the SDK against it.
demo: deps
	$(SWIFT) run $(STRICT) joryio-demo

## consumer: a separate package that depends on this one as an app would (public API only): the
## JoryioAnalytics product with JoryioTesting, tracked against a recording transport and checked, and
## the README's usage sample compiled against the Joryio product.
consumer: deps
	$(SWIFT) build --package-path Examples/Consumer -Xswiftc -warnings-as-errors
	Examples/Consumer/.build/debug/analytics-consumer
	Examples/Consumer/.build/debug/docs-examples

## bench: the figures in docs/performance.md (release build, a few minutes; never part of `make test`).
## Quiet the machine first: other builds on the 2 cores skew every figure.
bench: deps
	$(SWIFT) run -c release joryio-bench

## fuzz / fuzz-smoke: libFuzzer over every parser of outside bytes (issue 12; Tools/Fuzz/<Name>, one
## executable per parser). fuzz-build compiles them in release with `-sanitize=fuzzer,address` into
## their own scratch path (the normal build cache is untouched). `make fuzz` runs each target for
## FUZZ_SECONDS (default 300), growing .build/fuzz/corpus/<Name> from the checked-in seeds in
## Tools/Fuzz/Corpus/<Name>; `make fuzz-smoke` runs each for FUZZ_SMOKE_SECONDS (10). A crash stops the
## run and leaves its input in .build/fuzz/artifacts/<Name>/; replay it with the normal build's
## `.build/debug/fuzz-<Name> <file>`. Each run ends with libFuzzer's `cov:` and `exec/s` figures.
FUZZ_TARGETS = BatchResponse AttributeResponse DurableResponse DurableWriteCodec AttributeWriteCodec \
	AuthTokenBook SettingsFile JWT JSONValue RetryAfter EventJournal PushPayload InAppSync
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_SCRATCH = .build/fuzz
FUZZ_FLAGS = -c release --scratch-path $(FUZZ_SCRATCH) -Xswiftc -sanitize=fuzzer,address -Xswiftc -DJORYIO_FUZZ
FUZZ_RUN = set -e; for name in $(FUZZ_TARGETS); do \
		rm -rf $(FUZZ_SCRATCH)/artifacts/$$name; mkdir -p $(FUZZ_SCRATCH)/corpus/$$name $(FUZZ_SCRATCH)/artifacts/$$name; \
		echo "== fuzz-$$name ($$seconds s)"; \
		ASAN_OPTIONS=detect_leaks=0 $(FUZZ_SCRATCH)/release/fuzz-$$name -max_total_time=$$seconds -print_final_stats=1 -detect_leaks=0 \
			-artifact_prefix=$(FUZZ_SCRATCH)/artifacts/$$name/ \
			$(FUZZ_SCRATCH)/corpus/$$name Tools/Fuzz/Corpus/$$name 2>&1 \
			| grep -E '^(\#[0-9]+[[:space:]]+DONE|stat::|==[0-9]+==|SUMMARY|Fatal error|.*fuzz property failed)' \
			|| true; \
		test -z "$$(ls -A $(FUZZ_SCRATCH)/artifacts/$$name)" \
			|| { echo "error: fuzz-$$name found a crash: $(FUZZ_SCRATCH)/artifacts/$$name" >&2; exit 1; }; \
	done

fuzz-build: deps
	@set -e; for name in $(FUZZ_TARGETS); do $(SWIFT) build $(FUZZ_FLAGS) --product fuzz-$$name; done

fuzz: fuzz-build
	@seconds=$(FUZZ_SECONDS); $(FUZZ_RUN)

fuzz-smoke: fuzz-build
	@seconds=$(FUZZ_SMOKE_SECONDS); $(FUZZ_RUN)

## fuzz-replay: what CI runs: every checked-in corpus input once, through the sanitized fuzz builds
## (deterministic: a random run can find a new input at any time, which belongs in an issue and in the
## corpus, not in a failed landing).
fuzz-replay: fuzz-build
	@set -e; for name in $(FUZZ_TARGETS); do \
		echo "== fuzz-$$name: replaying Tools/Fuzz/Corpus/$$name"; \
		log=$(FUZZ_SCRATCH)/replay-$$name.log; \
		if ASAN_OPTIONS=detect_leaks=0 $(FUZZ_SCRATCH)/release/fuzz-$$name -runs=0 -detect_leaks=0 \
			Tools/Fuzz/Corpus/$$name > $$log 2>&1; then tail -2 $$log; \
		else cat $$log; echo "error: fuzz-$$name failed on its corpus" >&2; exit 1; fi; \
	done

## generate: docs/API.md, Modules/Kit/PrivacyInfo.xcprivacy and docs/PrivacyInfo.json through the
## two command plugins (the same commands a release pipeline runs), and the geozones product's own
## Modules/Geozones/PrivacyInfo.xcprivacy and docs/PrivacyInfo-Geozones.json, and the sandbox's copy of
## the in-app document's parts. Commit the result.
PLUGIN = $(SWIFT) package $(STRICT) --allow-writing-to-package-directory
## JoryioGeozones ships its own manifest (issue 19, PRIVACY-7): the same tool, its module only; the
## Kit manifest above never includes it. GEOZONES_MANIFEST_TO writes it to another place.
GEOZONES_MANIFEST_TO = $(PLUGIN) generate-privacy-manifest --module JoryioGeozones --output $(1) --json $(2)
GEOZONES_MANIFEST = $(call GEOZONES_MANIFEST_TO,Modules/Geozones/PrivacyInfo.xcprivacy,docs/PrivacyInfo-Geozones.json)
PLUTIL ?= plutil
CHECK_DIR = .build/check-generated
## The sandbox's copy of the in-app HTML document's parts (no browser needed).
SANDBOX_DOCUMENT = Tools/sandbox/joryio_sandbox/inapp_document.json
generate: deps
	$(PLUGIN) generate-api-reference
	$(PLUGIN) generate-privacy-manifest
	$(PLUTIL) -lint Modules/Kit/PrivacyInfo.xcprivacy
	$(GEOZONES_MANIFEST)
	$(PLUTIL) -lint Modules/Geozones/PrivacyInfo.xcprivacy
	$(SWIFT) run $(STRICT) joryio-tools inapp-document --output $(SANDBOX_DOCUMENT)

## generate-previews: the in-app previews in the DocC catalogue (issue 17): docs/previews/campaigns.json
## rendered by `joryio-tools preview-campaign` in headless Chromium, light and dark at 2x, with
## docs/previews/manifest.json naming each PNG with the SHA-256 of its page and of its bytes. Needs a
## browser, so CI does not render: check-generated checks every page still hashes as the manifest says
## and every PNG is the one rendered.
PREVIEW_CAMPAIGNS = docs/previews/campaigns.json
PREVIEW_MANIFEST = docs/previews/manifest.json
PREVIEW_DIR = Modules/Joryio/Joryio.docc/Resources
generate-previews: deps deps-browser
	$(SWIFT) run $(STRICT) joryio-tools preview-campaign $(PREVIEW_CAMPAIGNS) --docc --out $(PREVIEW_DIR) --manifest $(PREVIEW_MANIFEST)

## check-generated: regenerate into $(CHECK_DIR) and fail when a checked-in generated file differs.
check-generated: deps
	rm -rf $(CHECK_DIR)
	$(PLUGIN) generate-api-reference --output $(CHECK_DIR)/API.md
	$(PLUGIN) generate-privacy-manifest --output $(CHECK_DIR)/PrivacyInfo.xcprivacy --json $(CHECK_DIR)/PrivacyInfo.json
	$(PLUTIL) -lint Modules/Kit/PrivacyInfo.xcprivacy $(CHECK_DIR)/PrivacyInfo.xcprivacy
	$(call GEOZONES_MANIFEST_TO,$(CHECK_DIR)/Geozones.xcprivacy,$(CHECK_DIR)/PrivacyInfo-Geozones.json)
	$(PLUTIL) -lint Modules/Geozones/PrivacyInfo.xcprivacy $(CHECK_DIR)/Geozones.xcprivacy
	$(SWIFT) run $(STRICT) joryio-tools preview-campaign $(PREVIEW_CAMPAIGNS) --docc --out $(PREVIEW_DIR) --check-manifest $(PREVIEW_MANIFEST)
	$(SWIFT) run $(STRICT) joryio-tools inapp-document --output $(CHECK_DIR)/inapp_document.json
	@stale=0; \
	for pair in docs/API.md:API.md Modules/Kit/PrivacyInfo.xcprivacy:PrivacyInfo.xcprivacy \
			$(SANDBOX_DOCUMENT):inapp_document.json \
			docs/PrivacyInfo.json:PrivacyInfo.json \
			Modules/Geozones/PrivacyInfo.xcprivacy:Geozones.xcprivacy \
			docs/PrivacyInfo-Geozones.json:PrivacyInfo-Geozones.json; do \
		file=$${pair%%:*}; fresh=$(CHECK_DIR)/$${pair##*:}; \
		if ! diff -u "$$file" "$$fresh"; then \
			echo "error: $$file is out of date: run 'make generate' and commit the result" >&2; stale=1; \
		fi; \
	done; \
	if [ $$stale = 0 ]; then echo "Generated files are up to date."; fi; \
	exit $$stale

## check-rules: fail when a file under Modules, Tests or Tools cites a rule ID (BATCH-7, GAP-18, ...)
## that docs/rules.md does not list; each missing ID is reported at its first citation. Also fail when
## a GAP the spec defines is not named in docs/decisions.md, or a rule it defines has no line in
## docs/rules.md; the spec is docs/spec/SPEC.md or ../shared/spec/SPEC.md, and without either (a
## clean checkout) those parts are skipped, saying so.
check-rules: deps
	$(SWIFT) run $(STRICT) joryio-tools check-rules --root .

## check-required-reason: fail when Swift code under Modules that compiles for an Apple platform uses one
## of Apple's required-reason APIs (file timestamps incl. the stat family, boot time, disk space, active
## keyboards, UserDefaults) in a category Modules/Kit/PrivacyInfo.xcprivacy does not declare, unless
## docs/required-reason-allowlist.txt allows it with a reason (STORE-10, PRIVACY-7).
check-required-reason: deps
	$(SWIFT) run $(STRICT) joryio-tools check-required-reason --root .

## check-pod-module: the CocoaPods pod is one module (PKG-9): copy its sources, rewrite them as the
## podspec's prepare_command does (Tools/pod/single-module.sh), and type-check them as the single
## module `Joryio` with the package's language mode and flags (Apple-only `#if` code is not seen here).
## The NotificationServiceExtension subspec is its own pod target in the extension (no Core): its folder
## is type-checked alone as `Joryio` too, and with the others (an app may install both in one target).
POD_FOLDERS = Core Storage Transport Delivery Consent Identity Platform Auth Feature Push InApp Ecommerce Kit Joryio UI \
	NotificationServiceExtension
POD_SWIFTC = swiftc -typecheck -swift-version 6 -warnings-as-errors -module-name Joryio -package-name joryio \
	-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
	-enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature NonisolatedNonsendingByDefault
check-pod-module: deps
	@rm -rf .build/pod-module && mkdir -p .build/pod-module && cp -R Modules .build/pod-module/
	@sh Tools/pod/single-module.sh .build/pod-module/Modules
	@cd .build/pod-module && swiftc -typecheck -swift-version 6 -warnings-as-errors -module-name Joryio -package-name joryio \
		-I Modules/System/CJoryioSQLite -I Modules/System/CJoryioZlib -I Modules/System/CJoryioCurl \
		-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
		-enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature NonisolatedNonsendingByDefault \
		$$(for folder in $(POD_FOLDERS); do find Modules/$$folder -name '*.swift'; done) \
		&& echo "The pod's sources type-check as the one module Joryio."
	@cd .build/pod-module && $(POD_SWIFTC) $$(find Modules/NotificationServiceExtension -name '*.swift') \
		&& echo "The NotificationServiceExtension subspec type-checks alone as the module Joryio."

## check-nse: the Notification Service Extension product depends on nothing (PKG-13, NSE-3, STORE-9):
## its target graph (swift package dump-package) is the one target, with no system library, linker
## setting or resource, and its sources import only OS frameworks. Also builds it in release and
## reports its object size, failing above NSE_MAX_OBJECT_BYTES (docs/performance.md). Last, the Apple
## adapter JoryioNotificationService (skipped by a Linux build) is type-checked with the package's
## flags against a stub of the UserNotifications signatures it uses (Tools/nse-stub): its shape, not
## Apple's behaviour.
NSE_MAX_OBJECT_BYTES ?= 1000000
NSE_STUB = .build/nse-stub
check-nse: deps
	@mkdir -p .build && $(SWIFT) package dump-package > $(PACKAGE_DUMP)
	$(SWIFT) build -c release $(STRICT) --target JoryioNotificationServiceExtension
	$(SWIFT) run $(STRICT) joryio-tools check-nse --root . --package-json $(PACKAGE_DUMP) \
		--objects .build/release/JoryioNotificationServiceExtension.build --max-bytes $(NSE_MAX_OBJECT_BYTES)
	@if command -v size >/dev/null 2>&1; then size -t .build/release/JoryioNotificationServiceExtension.build/*.o \
		| awk 'END { print "JoryioNotificationServiceExtension: code and data (size -t: text+data+bss) " $$4 " bytes." }'; fi
	@rm -rf $(NSE_STUB) && mkdir -p $(NSE_STUB)
	@swiftc -frontend -compile-module-from-interface Tools/nse-stub/UserNotifications.swiftinterface \
		-module-name UserNotifications -o $(NSE_STUB)/UserNotifications.swiftmodule
	@swiftc -typecheck -swift-version 6 -warnings-as-errors -module-name JoryioNotificationServiceExtension \
		-package-name joryio -I $(NSE_STUB) -enable-upcoming-feature ExistentialAny \
		-enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature MemberImportVisibility \
		-enable-upcoming-feature NonisolatedNonsendingByDefault \
		$$(find Modules/NotificationServiceExtension -name '*.swift') \
		&& echo "JoryioNotificationService type-checks against the UserNotifications stub (Tools/nse-stub)."

## check-apple: the Apple compile check (issue 26). Every library module the products reach, compiled to
## arm64 Mach-O objects for iOS and type-checked for macOS, in the Swift 6 language mode with the settings
## Package.swift gives each target, in dependency order, then the Examples app and NSE against the products'
## public interfaces. SDKs: $$JORYIO_APPLE_SDKS (default ~/.cache/joryio-apple-sdks; on a Mac, xcrun's);
## lay them out with ../shared/apple-sdk/prepare-sdks (README, Development). Without them it says so and
## skips, except with CI=true. Every diagnostic must be listed in Tools/AppleCheck/expected-diagnostics.txt
## with its reason (SDK age only). Logic: joryio-tools check-apple (Tools/JoryioToolsCore/AppleCheck).
## The module cache stays in .build/check-apple: a second run takes well under two minutes.
APPLE_EXAMPLES = --example JoryioExampleApp=Examples/iOSApp:Joryio,JoryioUI,JoryioGeozones \
	--example JoryioExampleNotificationService=Examples/NotificationService:JoryioNotificationServiceExtension
check-apple: deps
	@mkdir -p .build && $(SWIFT) package dump-package > $(PACKAGE_DUMP)
	$(SWIFT) run $(STRICT) joryio-tools check-apple --root . --package-json $(PACKAGE_DUMP) $(APPLE_EXAMPLES)

## check-podspec: fail when Joryio.podspec (CocoaPods from the git tag, PKG-5…PKG-9) no longer mirrors the
## SwiftPM products: subspecs, source folders, system libraries, the privacy manifest, deployment targets,
## Swift language mode, version. No pod tooling runs: the podspec is read with line rules.
PACKAGE_DUMP = .build/package-dump.json
check-podspec: deps
	@mkdir -p .build && $(SWIFT) package dump-package > $(PACKAGE_DUMP)
	$(SWIFT) run $(STRICT) joryio-tools check-podspec --root . --package-json $(PACKAGE_DUMP)

## docs: the DocC sites of the public products' modules under .build/docs/<Module>, offline, with the
## toolchain's docc and warnings as errors. Symbol graphs come from `swift package dump-symbol-graph`.
## (One site per module: docc does not resolve ``links`` into another module's symbols, which is
## why JoryioTransport.docc, full of JoryioCore links and not a product, is not built here.)
DOCC ?= docc
DOC_MODULES = JoryioKit Joryio JoryioTesting JoryioNotificationServiceExtension JoryioGeozones
SYMBOL_GRAPHS = .build/docs-symbol-graphs
docs: deps
	$(SWIFT) package $(STRICT) dump-symbol-graph --minimum-access-level public --skip-synthesized-members \
		--emit-extension-block-symbols
	@set -e; graphs=$$(dirname $$($(SWIFT) build $(STRICT) --show-bin-path))/symbolgraph; \
	for module in $(DOC_MODULES); do \
		folder=$$(dirname $$(ls -d Modules/*/$$module.docc)); \
		rm -rf $(SYMBOL_GRAPHS)/$$module .build/docs/$$module; mkdir -p $(SYMBOL_GRAPHS)/$$module .build/docs; \
		cp $$graphs/$$module.symbols.json $(SYMBOL_GRAPHS)/$$module/; \
		cp $$graphs/$$module@*.symbols.json $(SYMBOL_GRAPHS)/$$module/ 2>/dev/null || true; \
		echo "== docc convert $$module"; \
		$(DOCC) convert $$folder/$$module.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS)/$$module \
			--fallback-display-name $$module --fallback-bundle-identifier io.joryio.$$module \
			--output-path .build/docs/$$module --warnings-as-errors; \
	done

## lint / format: the toolchain's swift-format with the repository's .swift-format.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Modules Plugins Tools Tests Examples

format:
	$(SWIFT) format format --in-place --recursive --parallel Package.swift Modules Plugins Tools Tests Examples

clean:
	$(SWIFT) package clean
