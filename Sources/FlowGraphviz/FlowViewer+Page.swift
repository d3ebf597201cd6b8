extension FlowViewer {
    /// The page's style sheet: the layout of the page, and the highlights the script puts on the SVG's
    /// elements (classes `fv-current`, `fv-active`, `fv-taken`, `fv-selected`, `fv-related`,
    /// `fv-folded`, `fv-hidden`).
    static let css = #"""
    :root { --accent: #b45309; --taken: #dc2626; --related: #2563eb; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
           color: #1f2937; background: #f9fafb; }
    header { padding: 8px 16px; border-bottom: 1px solid #e5e7eb; background: #fff; }
    h1 { font-size: 18px; margin: 0; overflow-wrap: anywhere; }
    .fv-help { margin: 2px 0 0; color: #6b7280; font-size: 12px; }
    main { display: flex; align-items: flex-start; gap: 12px; padding: 12px; }
    #fv-diagram { flex: 1 1 auto; min-width: 0; overflow: auto; background: #fff; border: 1px solid #e5e7eb;
                  border-radius: 6px; padding: 8px; max-height: calc(100vh - 90px); }
    #fv-diagram svg { display: block; max-width: 100%; height: auto; }
    #fv-panel { flex: 0 0 340px; max-height: calc(100vh - 90px); overflow: auto; }
    #fv-panel section { background: #fff; border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 12px;
                        margin-bottom: 12px; }
    h2 { font-size: 12px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .05em; color: #6b7280; }
    h3 { font-size: 15px; margin: 0 0 4px; overflow-wrap: anywhere; }
    h4 { font-size: 12px; margin: 8px 0 2px; color: #6b7280; font-weight: 600; }
    p { margin: 2px 0; overflow-wrap: anywhere; }
    .fv-buttons { display: flex; gap: 4px; flex-wrap: wrap; }
    button { font: inherit; padding: 3px 8px; border: 1px solid #d1d5db; border-radius: 4px; background: #f3f4f6;
             cursor: pointer; text-align: left; }
    button:hover:not(:disabled) { background: #e5e7eb; }
    button:disabled { opacity: .45; cursor: default; }
    #fv-position { font-weight: 600; margin-top: 6px; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 8px; margin: 6px 0 0; }
    dt { color: #6b7280; }
    dd { margin: 0; overflow-wrap: anywhere; }
    ul, ol { margin: 2px 0; padding-left: 18px; }
    #fv-folds { list-style: none; padding-left: 0; }
    #fv-folds li { margin: 2px 0; }
    .fv-hint, .fv-none { color: #6b7280; }
    .fv-event { font-weight: 600; }
    .fv-guard { color: #7c3aed; }
    .fv-effects { color: #047857; }
    .fv-kind { color: #6b7280; font-weight: normal; font-size: 12px; }
    [hidden] { display: none !important; }
    #fv-diagram g.node, #fv-diagram g.cluster { cursor: pointer; }
    #fv-diagram g.node > path, #fv-diagram g.node > polygon, #fv-diagram g.node > ellipse { pointer-events: all; }
    #fv-diagram g.edgelabel { cursor: default; }
    #fv-diagram g.fv-hidden { display: none; }
    g.fv-current > path, g.fv-current > polygon, g.fv-current > ellipse { fill: #ffe08a; stroke: var(--accent); stroke-width: 3px; }
    g.cluster.fv-current > path, g.cluster.fv-current > polygon { fill: #fff4cc; }
    g.fv-active > path, g.fv-active > polygon { stroke: var(--accent); stroke-width: 2px; }
    g.fv-selected > path, g.fv-selected > polygon, g.fv-selected > ellipse { stroke: var(--related); stroke-width: 3px; }
    g.fv-related > path { stroke: var(--related); stroke-width: 2.5px; }
    g.fv-related > polygon { fill: var(--related); stroke: var(--related); }
    g.fv-related > text { fill: var(--related); }
    g.fv-taken > path { stroke: var(--taken); stroke-width: 3px; }
    g.fv-taken > polygon { fill: var(--taken); stroke: var(--taken); }
    g.fv-taken > text { fill: var(--taken); font-weight: bold; }
    g.fv-folded > path, g.fv-folded > polygon { fill: #e5e7eb; }
    g.fv-folded.fv-current > path, g.fv-folded.fv-current > polygon { fill: #ffe08a; }
    text.fv-badge { font-size: 11px; fill: #374151; font-style: italic; }

    """#

    /// The page's script: reads the data from the `fv-data` element, finds the SVG's elements by the
    /// identifiers ``FlowViewer/stateElementID(_:)`` and ``FlowViewer/edgeElementClass(_:)`` give them,
    /// and writes user text into the page only as text (`textContent`), never as markup.
    static let script = #"""
    (function () {
      "use strict";
      var data = JSON.parse(document.getElementById("fv-data").textContent);
      var svg = document.querySelector("#fv-diagram svg");
      var SVG_NS = "http://www.w3.org/2000/svg";
      var stateById = {};
      data.states.forEach(function (s) { stateById[s.id] = s; });
      function each(list, f) { Array.prototype.forEach.call(list, f); }
      function el(id) { return document.getElementById("fvn_" + id); }
      function make(tag, text, className) {
        var e = document.createElement(tag);
        if (text !== undefined && text !== null) e.textContent = text;
        if (className) e.className = className;
        return e;
      }
      function setText(id, text) { document.getElementById(id).textContent = text; }
      function labelOf(id) { return stateById[id] ? stateById[id].label : id; }

      // An edge drawn through a label node is two SVG edges; its label node belongs to it too.
      var nodeByTitle = {};
      if (svg) each(svg.querySelectorAll("g.node"), function (g) {
        var t = g.querySelector("title");
        if (t) nodeByTitle[t.textContent] = g;
      });
      var edgeParts = data.edges.map(function (edge, i) {
        var parts = svg ? Array.prototype.slice.call(svg.querySelectorAll("g.fve_" + i)) : [];
        parts.slice().forEach(function (g) {
          var t = g.querySelector("title");
          if (!t) return;
          t.textContent.split("->").forEach(function (end) {
            var node = nodeByTitle[end];
            if (end.indexOf("__label") === 0 && node && parts.indexOf(node) < 0) {
              node.classList.add("fve_" + i);
              parts.push(node);
            }
          });
        });
        return parts;
      });
      // Graphviz's titles name generated identifiers: no use as tooltips.
      if (svg) each(svg.querySelectorAll("g.node > title, g.edge > title, g.cluster > title"), function (t) { t.remove(); });

      function parentOf(id) { return stateById[id] ? stateById[id].parent : null; }
      function ancestors(id) {
        var result = [], p = parentOf(id);
        while (p && result.length <= data.states.length) { result.push(p); p = parentOf(p); }
        return result;
      }
      function inside(id, outer) { return id === outer || ancestors(id).indexOf(outer) >= 0; }
      var outgoing = {};
      data.transitions.forEach(function (t) { (outgoing[t.from] = outgoing[t.from] || []).push(t); });

      // Folding: a folded compound state hides what it contains and is drawn on top, filled, so the
      // edges that cross into it end at its border.
      var folded = {}, placeholders = {}, boxes = {};
      data.states.forEach(function (s) {
        var g = el(s.id);
        if (s.kind === "compound" && g && g.getBBox) boxes[s.id] = g.getBBox();
      });
      function foldedAncestor(id) {
        var result = null;
        ancestors(id).forEach(function (a) { if (folded[a]) result = a; });
        return result;
      }
      function shown(id) { return foldedAncestor(id) || id; }
      function edgeHidden(edge) {
        return Object.keys(folded).some(function (f) { return inside(edge.from, f) && inside(edge.to, f); });
      }
      function descendants(id) { return data.states.filter(function (s) { return s.id !== id && inside(s.id, id); }).length; }
      function setFolded(id, on) {
        var s = stateById[id];
        if (!s || s.kind !== "compound") return;
        var g = el(id);
        if (on) folded[id] = true; else delete folded[id];
        if (g && on && !placeholders[id]) {
          var mark = document.createTextNode("");
          g.parentNode.insertBefore(mark, g);
          placeholders[id] = mark;
          g.parentNode.appendChild(g);
          var box = boxes[id];
          if (box) {
            var badge = document.createElementNS(SVG_NS, "text");
            badge.setAttribute("class", "fv-badge");
            badge.setAttribute("text-anchor", "middle");
            badge.setAttribute("x", String(box.x + box.width / 2));
            badge.setAttribute("y", String(box.y + box.height / 2 + 8));
            var n = descendants(id);
            badge.textContent = "▸ " + n + (n === 1 ? " state" : " states") + " folded";
            g.appendChild(badge);
          }
        } else if (g && !on && placeholders[id]) {
          placeholders[id].parentNode.insertBefore(g, placeholders[id]);
          placeholders[id].remove();
          delete placeholders[id];
          each(g.querySelectorAll("text.fv-badge"), function (b) { b.remove(); });
        }
        if (g) g.classList.toggle("fv-folded", !!on);
        refresh();
      }
      function applyVisibility() {
        data.states.forEach(function (s) {
          var g = el(s.id);
          if (g) g.classList.toggle("fv-hidden", foldedAncestor(s.id) !== null);
        });
        data.edges.forEach(function (edge, i) {
          var hide = edgeHidden(edge);
          edgeParts[i].forEach(function (g) { g.classList.toggle("fv-hidden", hide); });
        });
        each(document.querySelectorAll("#fv-folds button"), function (b) {
          var id = b.getAttribute("data-state"), on = !!folded[id];
          b.textContent = (on ? "▸ " : "▾ ") + labelOf(id) + (on ? " (folded)" : "");
          b.setAttribute("aria-expanded", on ? "false" : "true");
        });
      }

      // The run.
      var steps = data.steps, position = 0;
      function clearClass(name) { each(document.querySelectorAll("." + name), function (g) { g.classList.remove(name); }); }
      function fillList(id, items, emptyText, ordered) {
        var box = document.getElementById(id);
        box.textContent = "";
        if (!items.length) { box.appendChild(make("span", emptyText, "fv-none")); return; }
        var list = make(ordered ? "ol" : "ul");
        items.forEach(function (item) { list.appendChild(make("li", item)); });
        box.appendChild(list);
      }
      function showStep() {
        clearClass("fv-current"); clearClass("fv-active"); clearClass("fv-taken");
        if (!steps.length) return;
        var step = steps[position];
        // Every active leaf (one per active region of a parallel state) is current; the states
        // containing them are active.
        var currents = step.states.map(shown);
        step.states.forEach(function (id, k) {
          var g = el(currents[k]);
          if (g) g.classList.add("fv-current");
          ancestors(id).forEach(function (a) {
            var ag = el(a);
            if (ag && currents.indexOf(a) < 0) ag.classList.add("fv-active");
          });
        });
        step.edges.forEach(function (i) { (edgeParts[i] || []).forEach(function (g) { g.classList.add("fv-taken"); }); });
        var start = step.from === null && step.event === null;
        setText("fv-position", "Step " + (position + 1) + " of " + steps.length + (start ? " (start)" : ""));
        setText("fv-step-event", step.event !== null ? step.event : (start ? "(start)" : "(eventless)"));
        var move = (step.from === null ? "start" : step.from) + " → " + step.to;
        if (step.states.length > 1) move += " (active: " + step.states.map(labelOf).join(", ") + ")";
        if (!step.state) move += " (not a state of this flow)";
        else if (foldedAncestor(step.state)) move += " (inside folded " + labelOf(foldedAncestor(step.state)) + ")";
        setText("fv-step-move", move);
        fillList("fv-step-transitions", step.transitions.map(function (t) {
          return t.label + (t.edge === null ? " (not drawn)" : "");
        }), "none", true);
        if (step.effects !== null) {
          setText("fv-step-effects-title", "Effects");
          fillList("fv-step-effects", step.effects, "none", true);
        } else {
          setText("fv-step-effects-title", "Effects (declared)");
          fillList("fv-step-effects", step.declaredEffects, "none (the run did not record effects)", true);
        }
        document.getElementById("fv-first").disabled = position === 0;
        document.getElementById("fv-back").disabled = position === 0;
        document.getElementById("fv-forward").disabled = position === steps.length - 1;
        document.getElementById("fv-last").disabled = position === steps.length - 1;
      }
      function go(p) {
        if (!steps.length) return;
        position = Math.max(0, Math.min(steps.length - 1, p));
        showStep();
      }

      // The state hovered, or else the one selected.
      var selected = null, hovered = null;
      function describe(t) {
        var li = make("li");
        if (!t.described) {
          li.appendChild(make("span", t.label || "(eventless)", "fv-event"));
        } else {
          li.appendChild(make("span", t.event === null ? "(eventless)" : t.event, "fv-event"));
          if (t.guard !== null) li.appendChild(make("span", " [" + t.guard + "]", "fv-guard"));
        }
        li.appendChild(make("span", t.targetless ? " (stays)" : " → " + labelOf(t.to)));
        if (t.described && t.effects.length) li.appendChild(make("span", " / " + t.effects.join(", "), "fv-effects"));
        return li;
      }
      function showState() {
        clearClass("fv-selected"); clearClass("fv-related");
        var box = document.getElementById("fv-state-details");
        box.textContent = "";
        var id = hovered || selected;
        var s = id ? stateById[id] : null;
        if (!s) { box.appendChild(make("p", "Hover or click a state.", "fv-hint")); return; }
        var g = el(shown(id));
        if (g) g.classList.add("fv-selected");
        var h = make("h3", s.label);
        var kind = { compound: "nested states", final: "final state", state: "state" }[s.kind] || s.kind;
        h.appendChild(make("span", " " + kind + (folded[id] ? ", folded" : ""), "fv-kind"));
        box.appendChild(h);
        var chain = ancestors(id).reverse().map(labelOf);
        if (chain.length) box.appendChild(make("p", "In: " + chain.join(" › ")));
        if (s.childFlow !== null) box.appendChild(make("p", "Runs the child flow " + s.childFlow));
        if (s.entry.length) box.appendChild(make("p", "Entry: " + s.entry.join(", "), "fv-effects fv-entry"));
        if (s.exit.length) box.appendChild(make("p", "Exit: " + s.exit.join(", "), "fv-effects fv-exit"));
        if (s.output !== null) box.appendChild(make("p", "Output: " + s.output));
        var any = false;
        [id].concat(ancestors(id)).forEach(function (source) {
          var list = outgoing[source] || [];
          if (!list.length) return;
          any = true;
          box.appendChild(make("h4", source === id ? "Transitions" : "Inherited from " + labelOf(source)));
          var ul = make("ul", null, "fv-transitions");
          list.forEach(function (t) {
            ul.appendChild(describe(t));
            (edgeParts[t.edge] || []).forEach(function (part) { part.classList.add("fv-related"); });
          });
          box.appendChild(ul);
        });
        if (!any) box.appendChild(make("p", "No transitions.", "fv-none"));
      }
      function stateOf(target) {
        var g = target && target.closest ? target.closest("g.node, g.cluster") : null;
        if (!g || !g.id || g.id.indexOf("fvn_") !== 0) return null;
        var id = g.id.slice(4);
        return stateById[id] ? id : null;
      }
      function refresh() { applyVisibility(); showStep(); showState(); }

      if (svg) {
        svg.addEventListener("mouseover", function (e) {
          var id = stateOf(e.target);
          if (id !== hovered) { hovered = id; showState(); }
        });
        svg.addEventListener("mouseleave", function () { hovered = null; showState(); });
        svg.addEventListener("click", function (e) {
          var id = stateOf(e.target);
          selected = id === selected ? null : id;
          showState();
        });
        svg.addEventListener("dblclick", function (e) {
          var id = stateOf(e.target);
          if (id && stateById[id].kind === "compound") { e.preventDefault(); setFolded(id, !folded[id]); }
        });
      }
      document.getElementById("fv-first").addEventListener("click", function () { go(0); });
      document.getElementById("fv-back").addEventListener("click", function () { go(position - 1); });
      document.getElementById("fv-forward").addEventListener("click", function () { go(position + 1); });
      document.getElementById("fv-last").addEventListener("click", function () { go(steps.length - 1); });
      document.addEventListener("keydown", function (e) {
        if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
        var tag = e.target && e.target.tagName;
        if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
        switch (e.key) {
        case "ArrowRight": go(position + 1); break;
        case "ArrowLeft": go(position - 1); break;
        case "Home": go(0); break;
        case "End": go(steps.length - 1); break;
        case "Escape": selected = null; hovered = null; showState(); break;
        default: return;
        }
        e.preventDefault();
      });
      var foldList = document.getElementById("fv-folds");
      data.states.forEach(function (s) {
        if (s.kind !== "compound") return;
        var li = make("li");
        li.style.paddingLeft = (ancestors(s.id).length * 14) + "px";
        var b = make("button", null, "fv-fold");
        b.type = "button";
        b.setAttribute("data-state", s.id);
        b.addEventListener("click", function () { setFolded(s.id, !folded[s.id]); });
        li.appendChild(b);
        foldList.appendChild(li);
      });
      refresh();
    })();

    """#
}
