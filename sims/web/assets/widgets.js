// The table page's widgets (sims/web/assets/app.js draws the page with
// them): elements by id and new ones, the notice line, a question with big
// buttons, number and distance pads, two dice on one screen, the questions
// of a one-screen form.
// They hold no rule and no session: what to ask, and what an answer means,
// is the server's.
"use strict";
window.vedetteWidgets = (() => {
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") e.addEventListener("click", v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  }

  function notice(text) {
    const n = $("notice");
    n.hidden = !text;
    n.textContent = text || "";
  }

  // ---------------------------------------------------------- asking, rolling
  // A question with big buttons; `cancel` adds a way back that writes nothing.
  function choices(flow, question, options, done, cancel) {
    flow.replaceChildren(el("p", { class: "question", text: question }));
    const row = el("div", { class: "choices" });
    // An option is its text, or [text shown, value]. Long ones take a row each.
    for (const o of options) {
      const [text, value] = Array.isArray(o) ? o : [o, o];
      if (String(text).length > 9) row.classList.add("long");
      row.append(el("button", { text, onclick: () => done(value) }));
    }
    flow.append(row);
    if (cancel) flow.append(cancelRow(cancel));
    row.firstChild.focus();
  }

  const cancelRow = (cancel) => el("div", { class: "choices" }, el("button", { class: "cancel", text: "Cancel", onclick: cancel }));

  // A number on a pad. opts: unit (shown after it), decimal (a "." key),
  // cancel (a way back).
  function numberPad(flow, question, max, done, opts) {
    const o = typeof opts === "string" ? { unit: opts } : opts || {};
    let value = "";
    const out = el("output", { text: "0" });
    const pad = el("div", { class: "pad" }, out);
    const shown = () => { out.textContent = (value || "0") + (o.unit ? " " + o.unit : ""); };
    const press = (d) => {
      if (d === "⌫") value = value.slice(0, -1);
      else if (d === ".") { if (!value.includes(".") && value.length < 5) value = (value || "0") + "."; }
      else if ((value + d).length <= 6) value = (value + d).replace(/^0+(?=\d)/, "");
      shown();
    };
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", o.decimal ? "." : "⌫", "0", ...(o.decimal ? ["⌫"] : [])];
    for (const d of keys) pad.append(el("button", { text: d, "aria-label": d === "⌫" ? "Delete" : d, onclick: () => press(d) }));
    pad.append(el("button", { class: "primary", text: "OK", onclick: () => {
      const n = Number(value || "0");
      if (max !== undefined && n > max) { notice(`At most ${max}.`); return; }
      notice("");
      done(n, value || "0");
    } }));
    flow.replaceChildren(el("p", { class: "question", text: question }), pad);
    if (o.cancel) flow.append(cancelRow(o.cancel));
    shown();
    pad.querySelector("button").focus();
    return { pad, out, shown, set unit(u) { o.unit = u; shown(); } };
  }

  // A distance on the table: decimals, in the table's unit or another
  // (`units` from the server: the table's first). Gives "12.5in".
  function distancePad(flow, question, units, done, cancel) {
    let unit = units[0];
    const p = numberPad(flow, question, undefined, (n, text) => done(text.replace(/\.$/, "") + unit), { unit, decimal: true, cancel });
    if (units.length > 1) {
      const row = el("div", { class: "choices units" });
      for (const u of units) {
        const b = el("button", { text: u, "aria-pressed": String(u === unit), onclick: () => {
          unit = u;
          p.unit = u;
          for (const x of row.children) x.setAttribute("aria-pressed", String(x.textContent === u));
        } });
        row.append(b);
      }
      p.pad.before(row);
    }
  }
  // The table's unit of length first, then the other (the server names the table's).
  const lengthUnits = (tableUnit) => [tableUnit, ...["cm", "in"].filter((u) => u !== tableUnit)];

  // The player's two dice on one screen: a row of 1-6 for each die (a tap
  // changes it), then OK. `question` says what to roll and what it needs
  // (the server's numbers).
  function twoDice(form, question, done, cancel) {
    const dice = [undefined, undefined];
    const ok = el("button", { class: "primary", text: "OK", disabled: "", onclick: () => {
      if (dice.every((d) => d !== undefined)) done(dice.map(Number));
    } });
    const rows = ["First die", "Second die"].map((label, k) => {
      const box = pick(label, ["1", "2", "3", "4", "5", "6"], undefined, (d) => {
        dice[k] = d;
        if (dice.every((x) => x !== undefined)) ok.removeAttribute("disabled");
      });
      box.classList.add("die");
      box.dataset.die = String(k + 1);
      box.querySelector(".choices").classList.add("faces");
      return box;
    });
    form.replaceChildren(el("p", { class: "question", text: `${question}.` }), ...rows, el("div", { class: "choices" }, ok));
    if (cancel) form.append(cancelRow(cancel));
    rows[0].querySelector("button").focus();
  }

  // One question of a one-screen form: its buttons stay, the answer given
  // is pressed, and a tap changes it. `options`: text, or [text, value].
  function pick(question, options, selected, onpick) {
    const row = el("div", { class: "choices", role: "group" });
    const box = el("div", { class: "pick" }, el("p", { class: "question", text: question }), row);
    for (const o of options) {
      const [text, value] = Array.isArray(o) ? o : [o, o];
      if (String(text).length > 9) row.classList.add("long");
      const b = el("button", { text, "aria-pressed": String(value === selected), onclick: () => {
        for (const x of row.children) x.setAttribute("aria-pressed", String(x === b));
        onpick(value);
      } });
      row.append(b);
    }
    return box;
  }

  // A distance on a pad with no OK (the form's other answers are on the
  // same screen): every key says the value so far. `units`: the table's first.
  function livePad(question, units, start, onchange) {
    let value = start.value || "", unit = units.includes(start.unit) ? start.unit : units[0];
    const out = el("output", {});
    const pad = el("div", { class: "pad" }, out);
    const said = () => {
      out.textContent = (value || "0") + " " + unit;
      onchange(value, unit);
    };
    for (const d of ["1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "0", "⌫"]) {
      pad.append(el("button", { text: d, "aria-label": d === "⌫" ? "Delete" : d, onclick: () => {
        if (d === "⌫") value = value.slice(0, -1);
        else if (d === ".") { if (!value.includes(".") && value.length < 5) value = (value || "0") + "."; }
        else if ((value + d).length <= 6) value = (value + d).replace(/^0+(?=\d)/, "");
        said();
      } }));
    }
    const box = el("div", { class: "pick" }, el("p", { class: "question", text: question }));
    if (units.length > 1) {
      const row = el("div", { class: "choices units" });
      for (const x of units) row.append(el("button", { text: x, "aria-pressed": String(x === unit), onclick: () => {
        unit = x;
        for (const b of row.children) b.setAttribute("aria-pressed", String(b.textContent === x));
        said();
      } }));
      box.append(row);
    }
    box.append(pad);
    out.textContent = (value || "0") + " " + unit;
    return box;
  }

  return { $, el, notice, choices, cancelRow, numberPad, distancePad, lengthUnits, twoDice, pick, livePad };
})();
