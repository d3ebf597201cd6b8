import Foundation

/// Finds and drives a headless Chromium: the page, with a driver script appended that presses keys,
/// clicks and hovers as a user would and records what the page shows after each action into the
/// DOM, is loaded from a file; `--dump-dom` prints the DOM once the scripts have run, and the
/// records are read back from it.
public enum Browser {
    /// `FLOWSTATE_CHROMIUM`, or the first of Chromium's and Chrome's usual names on the `PATH`.
    public static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["FLOWSTATE_CHROMIUM"], FileManager.default.isExecutableFile(atPath: given) { return given }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for folder in folders {
                let candidate = folder + "/" + name
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// The skip message when Chromium is missing.
    public static let missing = "chromium not found (install it with `make deps`, or set FLOWSTATE_CHROMIUM): the viewer's browser tests are skipped"

    /// What the driver defines before the test's actions: `fv.snap(name)` records what the page shows,
    /// `fv.key`, `fv.click`, `fv.dblclick`, `fv.hover`, `fv.leave` act as a user.
    static let driverPrelude = #"""
    var fv = (function () {
      var results = [];
      function all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
      function text(sel) { var e = document.querySelector(sel); return e ? e.textContent : null; }
      function texts(sel) { return all(sel).map(function (e) { return e.textContent; }); }
      function ids(sel) { return all(sel).map(function (e) { return e.id; }).filter(Boolean).sort(); }
      function edges(sel) {
        var set = {};
        all(sel).forEach(function (g) { g.classList.forEach(function (c) { if (/^fve_[0-9]+$/.test(c)) set[c] = true; }); });
        return Object.keys(set).sort();
      }
      function disabled(id) { return document.getElementById(id).disabled; }
      function snap(name) {
        var h3 = document.querySelector("#fv-state-details h3");
        results.push({
          name: name,
          position: text("#fv-position"),
          current: ids("g.fv-current"), active: ids("g.fv-active"), selected: ids("g.fv-selected"),
          taken: edges("g.fv-taken"), related: edges("g.fv-related"),
          event: text("#fv-step-event"), move: text("#fv-step-move"),
          transitions: texts("#fv-step-transitions li"),
          effectsTitle: text("#fv-step-effects-title"), effects: texts("#fv-step-effects li"),
          effectsNone: text("#fv-step-effects .fv-none"),
          state: h3 && h3.firstChild ? h3.firstChild.textContent : null,
          stateHeadings: texts("#fv-state-details h4"),
          stateTransitions: texts("#fv-state-details ul.fv-transitions li"),
          entry: text("#fv-state-details .fv-entry"), exit: text("#fv-state-details .fv-exit"),
          hint: text("#fv-state-details .fv-hint"),
          hiddenStates: ids("g.fv-hidden").filter(function (id) { return id.indexOf("fvn_") === 0; }), hiddenEdges: edges("g.fv-hidden"),
          folded: ids("g.fv-folded"), badges: texts("text.fv-badge"), folds: texts("#fv-folds button"),
          buttons: [disabled("fv-first"), disabled("fv-back"), disabled("fv-forward"), disabled("fv-last")],
          runHidden: document.getElementById("fv-run").hidden,
          title: document.title, heading: text("#fv-title"),
          scripts: document.scripts.length, pwned: typeof window.pwned
        });
      }
      function key(k) {
        (document.activeElement || document.body).dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
      }
      function mouse(target, type, detail) {
        target.dispatchEvent(new MouseEvent(type, { bubbles: type !== "mouseleave", cancelable: true, view: window, detail: detail || 1 }));
      }
      function shape(id) {
        var g = document.getElementById("fvn_" + id);
        return g.querySelector("text") || g.querySelector("path, polygon, ellipse");
      }
      function target(x) { return typeof x === "string" ? (document.getElementById(x) || shape(x)) : x; }
      return {
        snap: snap,
        key: key,
        click: function (x) { mouse(target(x), "click"); },
        dblclick: function (x) { var t = target(x); mouse(t, "click", 1); mouse(t, "click", 2); mouse(t, "dblclick", 2); },
        hover: function (x) { mouse(target(x), "mouseover"); },
        leave: function () { mouse(document.querySelector("#fv-diagram svg"), "mouseleave"); },
        fold: function (id) { mouse(document.querySelector('#fv-folds button[data-state="' + id + '"]'), "click"); },
        done: function (error) {
          if (error) results.push({ name: "error", error: String(error) + " " + (error.stack || "") });
          var pre = document.createElement("pre");
          pre.id = "fv-test-results";
          pre.textContent = encodeURIComponent(JSON.stringify(results));
          document.body.appendChild(pre);
        }
      };
    })();

    """#

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Loads `page` with `actions` (JavaScript using `fv`) appended, and returns the snapshots it took.
    public static func drive(_ page: String, _ actions: String) throws -> [[String: Any]] {
        guard let path else { throw Failure(description: missing) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = "<script>\n" + driverPrelude + "try {\n" + actions + "\nfv.done();\n} catch (e) { fv.done(e); }\n</script>\n"
        guard let end = page.range(of: "</body>", options: .backwards) else { throw Failure(description: "the page has no </body>") }
        let driven = page.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: driver)
        let file = folder.appendingPathComponent("page.html")
        try driven.write(to: file, atomically: true, encoding: .utf8)
        let dump = folder.appendingPathComponent("dom.html")
        guard FileManager.default.createFile(atPath: dump.path, contents: nil) else {
            throw Failure(description: "cannot create \(dump.path)")
        }
        let output = try FileHandle(forWritingTo: dump)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=" + folder.appendingPathComponent("profile").path,
            "--window-size=1400,900", "--virtual-time-budget=5000", "--dump-dom", file.absoluteString,
        ]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "chromium did not finish within 120 s")
        }
        try output.close()
        let dom = try String(contentsOf: dump, encoding: .utf8)
        guard let open = dom.range(of: "<pre id=\"fv-test-results\">"),
              let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex) else {
            throw Failure(description: "the driver recorded nothing (chromium exit \(process.terminationStatus)); DOM ends: \(dom.suffix(400))")
        }
        guard let json = String(dom[open.upperBound..<close.lowerBound]).removingPercentEncoding,
              let results = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
            throw Failure(description: "the driver's records are not JSON")
        }
        if let error = results.first(where: { $0["name"] as? String == "error" }) {
            throw Failure(description: "the driver failed: \(error["error"] ?? "")")
        }
        return results
    }
}

/// Reads a snapshot's fields.
extension Dictionary where Key == String, Value == Any {
    /// The field `key` as text.
    public func text(_ key: String) -> String? { self[key] as? String }
    /// The field `key` as a list of texts.
    public func list(_ key: String) -> [String] { self[key] as? [String] ?? [] }
    /// The field `key` as a list of flags.
    public func flags(_ key: String) -> [Bool] { (self[key] as? [Any])?.compactMap { ($0 as? NSNumber)?.boolValue } ?? [] }
}
