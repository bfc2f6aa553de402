// Vedette at the table: the page over `vedette serve`'s API. It holds no
// rule: every question, roll and instruction comes from the server, which
// runs the same `vedette solo` commands as the terminal.
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  // The link's token (a phone on the network): the server answered it with
  // an HttpOnly cookie that every later request carries, so it leaves the
  // address bar (and the history) at once.
  if (params.has("token")) {
    params.delete("token");
    history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params.toString() : ""));
  }
  // The widgets: elements by id, new elements, the notice line, questions
  // with big buttons, pads and dice (sims/web/assets/widgets.js, loaded first).
  const { $, el, notice, choices, cancelRow, numberPad, distancePad, lengthUnits, twoDice, pick, livePad } = window.vedetteWidgets;
  let current = null;   // {name, rev, status}
  let busy = false;
  let interacting = false;  // the player is answering a card's questions: the poll leaves the page alone
  // What each step of this turn did (a charge, the initiative, a shot, a
  // melee, a rally), shown under its own heading until the next turn. Each
  // keeps the number of its event in the session's log: an undone step's
  // result goes with it (the status's undo.next is the last step in effect).
  // Kept in the tab's sessionStorage, so a reload shows them too.
  const results = {
    key: () => `vedette:${current.name}:results`,
    all() {
      try { return JSON.parse(sessionStorage.getItem(this.key()) || "[]"); } catch (e) { return []; }
    },
    shown() {
      const s = current.status;
      const last = s.undo && s.undo.next != null ? s.undo.next : 0;
      return this.all().filter((r) => r.turn === s.turn && r.n <= last);
    },
    // After the step's write (the status read again): it is the last in effect.
    add(unit, head, text) {
      const s = current.status;
      const list = this.shown();  // (those undone go: a new step ends their redo)
      list.push({ turn: s.turn, n: s.undo && s.undo.next != null ? s.undo.next : 0, unit, head, text });
      try { sessionStorage.setItem(this.key(), JSON.stringify(list)); } catch (e) { /* storage off: shown until the redraw */ }
    },
  };

  // "Hussars'", "Lancer's": a name's possessive, as the server writes it (solo::possessive).
  const whose = (name) => name + (/s$/i.test(name) ? "'" : "'s");

  async function api(method, path, body) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      throw new Error("Vedette is not answering. Is `vedette serve` still running?");
    }
    const data = await res.json().catch(() => ({ error: "an answer that is not JSON" }));
    if (res.status === 409 && current) {
      await openSession(current.name, true);
      notice(data.error || "The session changed; the page shows it as it is now.");
      throw Object.assign(new Error(""), { shown: true });
    }
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  }

  async function guarded(f) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";  // (a test waits for it to clear)
    try {
      await f();
    } catch (e) {
      if (!e.shown) notice(e.message);
    } finally {
      busy = false;
      delete document.body.dataset.busy;
    }
  }

  function show(section) {
    for (const id of ["sessions", "session", "log"]) $(id).hidden = id !== section;
    $("session-tools").hidden = section === "sessions";
  }

  // ---------------------------------------------------------------- sessions
  async function listSessions() {
    current = null;
    $("where").textContent = "";
    history.replaceState(null, "", location.pathname);
    const data = await api("GET", "/api/sessions");
    const list = $("session-list");
    list.replaceChildren();
    for (const s of data.sessions) {
      const label = s.problem ? `${s.name}: ${s.problem}` : `${s.name}: turn ${s.turn}, ${s.units.join(", ")}`;
      list.append(el("li", {}, el("button", { text: label, onclick: () => guarded(() => openSession(s.name)) })));
    }
    if (!data.sessions.length) list.append(el("li", { text: "No sessions yet: create one below." }));
    show("sessions");
  }

  $("new-session").addEventListener("submit", (ev) => {
    ev.preventDefault();
    guarded(async () => {
      const name = $("new-name").value.trim();
      const units = $("new-units").value.split("\n").map((s) => s.trim()).filter(Boolean);
      const body = { name, units, physical_dice: $("new-physical").checked };
      const seed = $("new-seed").value.trim();
      if (seed) body.seed = Number(seed);
      await api("POST", "/api/sessions", body);
      notice("");
      await openSession(name);
    });
  });

  // ----------------------------------------------------------------- session
  async function openSession(name, keepNotice, beforeRender) {
    const data = await api("GET", "/api/sessions/" + encodeURIComponent(name));
    current = { name, rev: data.rev, status: data.result };
    if (beforeRender) beforeRender();
    if (!keepNotice) notice("");
    history.replaceState(null, "", location.pathname + "?" + new URLSearchParams({ session: name }).toString());
    $("where").textContent = "· " + name;
    render();
    show("session");
  }

  function unitSummary(u) {
    const parts = [u.type.replace(/_/g, " ")];
    if (u.hero) parts.push("hero");
    if (u.raw) parts.push("raw");
    if (u.weapon) parts.push(u.weapon);  // its own, or its type's (issue 28)
    parts.push(`${u.figures - u.casualties} of ${u.figures} figures`);
    if (u.pace && u.pace !== "halt") parts.push(`moved at ${u.pace}`);
    if (u.on_foot) parts.push("on foot");
    if (u.morale !== "steady") parts.push(u.morale);
    if (u.ran_last_turn) parts.push("ran last turn");
    return parts.join(" · ");
  }

  function render() {
    interacting = false;
    const s = current.status;
    $("turn").textContent = `Turn ${s.turn}` + (s.physical_dice ? " · your dice" : "");
    const box = $("units");
    box.replaceChildren();
    for (const u of s.units) {
      const card = $("unit-card").content.firstElementChild.cloneNode(true);
      card.querySelector(".name").textContent = u.name;
      card.querySelector(".summary").textContent = unitSummary(u);
      const flow = card.querySelector(".flow");
      if (u.morale === "routed" && u.why_cannot_act) flow.append(el("p", { class: "instruction", text: u.why_cannot_act }));
      else if (u.acted_this_turn && u.last_instruction) flow.append(el("p", { class: "instruction", text: u.last_instruction }));
      for (const r of results.shown().filter((x) => x.unit === u.name)) flow.append(el("p", { class: "outcome", text: r.text }));
      // A unit acts once a turn: undo is the way back.
      const act = card.querySelector(".activate");
      act.hidden = !u.may_act;  // the server's answer (Session::why_cannot_act)
      act.addEventListener("click", () => { interacting = true; guarded(() => ask(u, flow, {})); });
      // Answers kept from before a reload: asked on from where they stop.
      const resume = u.acted_this_turn ? null : kept.get(u.name);
      if (u.acted_this_turn) kept.drop(u.name);
      // Cancel, or OK with nothing changed, writes nothing.
      card.querySelector(".casualties").addEventListener("click", () => (interacting = true) && numberPad(flow, `New casualties on ${u.name}`, u.figures - u.casualties,
        (n) => (n === 0 ? render() : guarded(() => change("casualties", { unit: u.name, count: n }))), { cancel: render }));
      card.querySelector(".morale").addEventListener("click", () => (interacting = true) && choices(flow, `${u.name} is now`, ["steady", "shaken", "rallying", "routed"],
        (m) => (m === u.morale ? render() : guarded(() => change("morale", { unit: u.name, state: m }))), render));
      if (u.charge_pending) chargeForm(u, flow, true);
      box.append(card);
      // The unit the server names next: its first question at once, as solo play asks it.
      const n = s.next_step;
      if (resume) setTimeout(() => { interacting = true; guarded(() => ask(u, flow, resume)); }, 0);
      else if (n && (n.step === "question" || n.step === "roll") && n.unit === u.name) setTimeout(() => guarded(() => ask(u, flow, {})), 0);
    }
    renderStep(s.next_step);
  }

  // ------------------------------------------------------ the turn's steps
  // After the activations, the server names the next step of the turn
  // (initiative, shooting, melee, rally) with its prompt in words; the page
  // asks it with buttons and sends the answers (`vedette solo initiative`,
  // `shoot`, `melee`, `rally`). Every number comes from the server.
  function renderStep(n) {
    renderTurnStep(n);
    yourMove($("step"));
  }

  // Your move (issue 28): once the initiative is rolled, a unit of yours
  // that ends near cavalry that may react (its opportunity charge, seed 003
  // L90), or charges a cavalry unit (its counter-charge and morale check,
  // L7). The server says who may react, the classes and the unit of length;
  // the result is shown under its own heading with the turn's steps.
  function yourMove(box) {
    const s = current.status;
    const re = s.reactions;
    if (!re || !re.your_move) return;
    const cavalry = s.units.filter((u) => u.figures > u.casualties && u.morale !== "routed").map((u) => u.name);
    const may = re.units.filter((u) => u.may_react).map((u) => u.unit);
    if (!cavalry.length) return;
    box.hidden = false;
    const flow = el("div", { class: "flow move" });
    const classes = re.classes.map((c) => [c.replace(/_/g, " "), c]);
    const units = lengthUnits(re.units_of_length);
    // With the player's dice (a session on physical dice), the server reads
    // them pair by pair as the cavalry's charge comes to each check: while
    // it needs more it writes nothing and says which check is next and what
    // it needs (`dice_needed`); the page asks that pair and sends all again.
    // The dice given so far are kept over a reload (reactionDice): the
    // same reaction is sent again and asks the next pair.
    const send = (action, body, title, shown, dice = []) => guarded(async () => {
      const mine = current.status.physical_dice ? { player_dice: true, ...(dice.length ? { roll: dice } : {}) } : {};
      const data = await api("POST", `/api/sessions/${encodeURIComponent(current.name)}/${action}`, { ...body, ...mine, rev: current.rev });
      if (data.weight_needed) {
        // The cavalry unit records no weight (light, medium, heavy): asked
        // in the server's words, then the same move sent again with it.
        interacting = true;
        const w = data.weight_needed;
        return choices(flow, w.question, w.choices, (their) => send(action, { ...body, their_weight: their }, title, shown, dice), render);
      }
      if (data.dice_needed) {
        interacting = true;
        reactionDice.set({ action, body, title, shown, dice });
        return twoDice(flow, data.dice_needed.text, (pair) => send(action, body, title, shown, [...dice, ...pair]),
          () => { reactionDice.drop(); render(); });
      }
      reactionDice.drop();
      const r = data.result;
      await openSession(current.name, false, () => {
        const text = action === "moved" ? r.reactions.filter((x) => shown.includes(x.unit)).map((x) => x.outcome).join(" ") : r.outcome;
        if (text) results.add(null, title, text);
      });
    });
    // One of several, asked only when there is a choice.
    const which = (question, list, done) => (list.length === 1 ? done(list[0]) : choices(flow, question, list, done, render));
    const near = () => {
      interacting = true;
      // What your unit did (seed 003 L93): moved, about to move (a charge
      // that reaches it stops it where it stands), or only turned.
      which("Which cavalry unit does your unit end near?", may, (unit) =>
        choices(flow, "Your unit's class", classes, (as) =>
          choices(flow, "Your unit", [["It has moved", "moved"], ["It is about to move", "about-to-move"], ["It only turned", "faced"]], (kind) =>
            distancePad(flow, `Distance from ${whose(unit)} front to your unit's nearest figure`, units, (d) =>
              choices(flow, `Which side of your unit would ${unit} strike?`, ["front", "flank", "rear"], (side) =>
                choices(flow, `Is your unit at least partly ${s.charge_arc[unit]}, and in sight of its front rank?`,
                  [["Yes", "yes"], ["Not even partly there", "arc"], ["Out of its sight", "sight"]], (seen) =>
                    send("moved", { as, kind, near: [{ unit, distance: d, side, in_arc: seen !== "arc", in_sight: seen !== "sight" }] },
                      `Your move: near ${unit}`, [unit, ...may]), render), render), render), render), render));
    };
    const charge = () => {
      interacting = true;
      which("Which cavalry unit does your unit charge?", cavalry, (unit) =>
        choices(flow, "Your unit's class", classes, (as) =>
          distancePad(flow, `Distance between them when your charge began`, units, (d) =>
            choices(flow, `Which side of ${unit} does it strike?`, ["front", "flank", "rear"], (side) =>
              send("charged", { unit, as, distance: d, side }, `Your move: you charge ${unit}`, [unit]), render), render), render));
    };
    const row = el("div", { class: "choices long" });
    if (may.length) row.append(el("button", { text: "A unit of mine ends near the cavalry", onclick: near }));
    row.append(el("button", { text: "A unit of mine charges the cavalry", onclick: charge }));
    // Your move is a step of the turn (the server's next_step "your_move"):
    // the turn goes on once you say it is over.
    if (s.next_step && s.next_step.step === "your_move")
      row.append(el("button", { class: "primary", text: "My move is over", onclick: () => guarded(() => change("end-move", {})) }));
    flow.append(el("p", { text: may.length ? `${may.join(", ")} may charge a unit of yours that moves or turns within its reach.`
      : "No cavalry unit may react to your moves now." }), row);
    box.append(el("h3", { text: "Your move" }), flow);
    // A reaction half answered before a reload: asked on from its next pair.
    const half = reactionDice.get();
    if (half) setTimeout(() => { interacting = true; send(half.action, half.body, half.title, half.shown, half.dice); }, 0);
  }

  // The player's dice given so far in a reaction that needs more
  // (`dice_needed`): kept in the tab's sessionStorage for this session and
  // this step (its turn and the last event in effect), so a reload asks the
  // next pair, not the first; dropped once the reaction is posted, cancelled
  // or undone (and ignored once the session has moved on).
  const reactionDice = {
    key: () => `vedette:${current.name}:reaction`,
    at: () => ({ turn: current.status.turn, n: current.status.undo && current.status.undo.next != null ? current.status.undo.next : 0 }),
    get() {
      try {
        const r = JSON.parse(sessionStorage.getItem(this.key()) || "null");
        const at = this.at();
        return r && r.turn === at.turn && r.n === at.n ? r : null;
      } catch (e) { return null; }
    },
    set(r) {
      try { sessionStorage.setItem(this.key(), JSON.stringify({ ...r, ...this.at() })); } catch (e) { /* storage off: nothing kept */ }
    },
    drop() {
      try { sessionStorage.removeItem(this.key()); } catch (e) { /* storage off */ }
    },
  };

  function renderTurnStep(n) {
    const box = $("step");
    const steps = ["initiative", "shooting", "melee", "rally"];
    // The turn's steps done so far, each under its own heading.
    const done = [];
    for (const r of results.shown().filter((x) => !x.unit)) done.push(el("h2", { class: "done", text: r.head }), el("p", { class: "outcome", text: r.text }));
    if (!n || !steps.includes(n.step)) {
      // The turn's steps are done: their outcomes stay, with solo play's
      // end-of-turn summary (the server's words) and the way on.
      const summary = current.status.turn_summary || [];
      box.hidden = !done.length && !summary.length;
      const kids = [...done];
      if (summary.length) kids.push(el("h2", { text: `End of turn ${current.status.turn}` }));
      if (summary.length) {
        const list = el("ul", { class: "summary-list" });
        for (const line of summary) list.append(el("li", { text: line }));
        kids.push(list, el("div", { class: "choices" }, el("button", { class: "primary", text: `Start turn ${current.status.turn + 1}`, onclick: () => guarded(() => change("next-turn", {})) })));
      }
      box.replaceChildren(...kids);
      return;
    }
    box.hidden = false;
    const head = el("h2", { text: n.step === "initiative" ? "Initiative" : `${n.unit}: ${n.step === "rally" ? "morale" : n.step}` });
    const flow = el("div", { class: "flow" });
    box.replaceChildren(head, flow);
    const physical = current.status.physical_dice;
    // post() inside a guarded block (guarded does not nest), send() from a tap.
    const post = (action, body) => change(action, body, (r) => {
      if (r && r.outcome) results.add(null, head.textContent, r.outcome);
    });
    const send = (action, body) => guarded(() => post(action, body));
    // "Roll for me" (unless physical dice), or the player's own result.
    const dice = (question, rolledBefore, mine) => {
      const row = el("div", { class: "choices" });
      if (!physical || rolledBefore) row.append(el("button", { class: "primary", text: "Roll for me", onclick: () => mine(null) }));
      if (!rolledBefore) row.append(el("button", { text: "I rolled", onclick: () => mine(undefined) }));
      flow.replaceChildren(el("p", { class: "question", text: question }), row);
      row.firstChild.focus();
    };
    // The dice of a one-screen step: "Roll for me" (unless physical dice)
    // or "I rolled", ready once the player's answers above are given.
    const diceRow = (given, mine) => {
      const row = el("div", { class: "choices" });
      if (!physical || n.rolled_before) row.append(el("button", { class: "primary", text: "Roll for me", onclick: () => given() && mine(null) }));
      if (!n.rolled_before) row.append(el("button", { text: "I rolled", onclick: () => given() && mine(undefined) }));
      row.ready = () => { for (const b of row.children) b.disabled = !given(); };
      row.ready();
      return row;
    };
    // The steps done stay above, each under its own heading.
    box.replaceChildren(...done, head, flow);
    // The step's first question is asked at once (a rout is confirmed first).
    const begin = () => {
      if (n.step === "initiative") {
        // One screen: the player's dice and the charges declared (usually
        // none: pressed), then the cavalry's die.
        const mine = { charges: 0 };
        const totals = [];
        for (let t = n.dice || 1; t <= 6 * (n.dice || 1) && totals.length <= 18; t++) totals.push(String(t));
        const row = diceRow(() => mine.roll !== undefined, (how) => {
          const body = { your_roll: mine.roll, your_charges: mine.charges };
          if (how === null) return send("initiative", body);
          choices(flow, "The cavalry's die", ["1", "2", "3", "4", "5", "6"], (d) => send("initiative", { ...body, roll: Number(d) }));
        });
        const yours = totals.length <= 18
          ? pick(`Your side's initiative: roll ${n.dice || 1} D6; what did the dice show?`, totals, undefined, (v) => { mine.roll = Number(v); row.ready(); })
          : (() => { const box = el("div"); numberPad(box, `Your side's initiative: roll ${n.dice} D6; the total shown`, undefined, (v) => { mine.roll = v; row.ready(); }); return box; })();
        flow.replaceChildren(yours,
          pick("Charges your side declared this turn", ["0", "1", "2", "3", "4"], "0", (c) => { mine.charges = Number(c); }),
          el("p", { class: "question", text: "The cavalry's initiative die" }), row);
      } else if (n.step === "shooting") {
        // The shot's questions, their order and when each is asked are the
        // shot procedure's (solo::shot_next, as solo play asks them): the
        // status gives its first need (n.shot), the server's shot-plan each
        // next one from the answers so far; the page asks what it is told
        // and sends the shot when the procedure is done.
        const answers = { unit: n.unit };
        const yesNo = (p, key) => {
          choices(flow, p.question, ["Yes", "No"], (v) => { answers[key] = v === "Yes"; next(); });
          if (p.help) flow.querySelector(".question").after(el("p", { class: "hint", text: p.help }));
        };
        const show = (p) => {
          if (p.ask === "target") return yesNo(p, "target");
          if (p.ask === "distance") return distancePad(flow, p.question, lengthUnits(n.units_of_length), (d) => { answers.distance = d; next(); });
          if (p.ask === "cover") return yesNo(p, "cover");
          // The dice: the session's ("Roll for me") or the player's hits.
          if (p.ask === "dice") return dice(`${n.unit} shoots ${n.weapon}: ${rollText(p.dice, p.need, "hits")}`, p.rolled_before, (how) => {
            if (how === null) { answers.rolled = true; return next(); }
            hitsChoice(flow, n.unit, p.dice, (h) => { answers.hits = h; next(); });
          });
          // Where its hits fall (seed 002 L35): asked only after a hit.
          if (p.ask === "mounted") return yesNo(p, "mounted");
          // Done: the shot as answered (no target: beyond its reach too).
          const shot = { ...answers };
          delete shot.rolled;  // (the session's dice: no hits given)
          return post("shoot", p.target ? shot : { unit: n.unit, target: false });
        };
        const next = () => guarded(async () => show(await api("POST", `/api/sessions/${encodeURIComponent(current.name)}/shot-plan`, answers)));
        show(n.shot);
      } else if (n.step === "melee" && n.square) {
        // Seed 004: the square's die first; a bounce face sends the cavalry back.
        const faces = [];
        for (let f = 1; f <= n.square_die; f++) faces.push(String(f));
        const shown = [];  // the square's dice, one face at a time (at most n.square_dice)
        const next = () => choices(flow, `${shown.length ? "" : n.text + " "}Your square's die ${shown.length + 1} of ${n.square_dice}: which face?`, faces, (face) => {
          shown.push(Number(face));
          if (shown.length < n.square_dice) return next();
          const body = { unit: n.unit, square_dice: shown };
          // Whether the cavalry strikes, and with what, is the melee procedure's
          // next step: the server says (melee-plan), the page only asks.
          const plan = (theirs) => api("POST", `/api/sessions/${encodeURIComponent(current.name)}/melee-plan`, { ...body, their_hits: theirs });
          const strike = async (theirs) => {
            const p = await plan(theirs);
            if (!p.strikes) return post("melee", { ...body, their_hits: theirs });
            dice(`${whose(n.unit)} melee: ${rollText(p.dice, p.need, "hits")}`, n.rolled_before, (how) => {
              if (how === null) return send("melee", { ...body, their_hits: theirs });
              hitsChoice(flow, n.unit, p.dice, (h) => send("melee", { ...body, their_hits: theirs, hits: h }));
            });
          };
          guarded(async () => {
            const first = await plan(0);
            if (first.square_hits_max === 0) return strike(0);  // every die bounced: no hit to count
            const counts = [];
            for (let h = 0; h <= first.square_hits_max; h++) counts.push(String(h));
            choices(flow, `How many hits did your square score on ${n.unit}?`, counts, (h) => guarded(() => strike(Number(h))));
          });
        });
        next();
      } else if (n.step === "melee") {
        // One screen: your unit's hits, then the cavalry's dice.
        const body = { unit: n.unit };
        const counts = [];
        for (let h = 0; h <= 12; h++) counts.push(String(h));
        const row = diceRow(() => body.their_hits !== undefined, (how) => {
          if (how === null) return send("melee", body);
          hitsChoice(flow, n.unit, n.dice, (h) => send("melee", { ...body, hits: h }));
        });
        const more = el("div");
        const hits = pick(`How many hits did your unit score on ${n.unit}?`, counts, undefined, (h) => { body.their_hits = Number(h); row.ready(); });
        hits.querySelector(".choices").classList.add("faces");
        hits.append(el("div", { class: "choices" }, el("button", { text: "More than 12", onclick: () => {
          numberPad(more, `How many hits did your unit score on ${n.unit}?`, undefined, (h) => { body.their_hits = h; row.ready(); more.replaceChildren(el("p", { text: `${h} hits` })); });
        } })), more);
        flow.replaceChildren(el("p", { text: n.text }), hits,
          el("p", { class: "question", text: `${whose(n.unit)} melee: ${rollText(n.dice, n.need, "hits")}` }), row);
      } else if (n.step === "rally") {
        if (n.routs) return send("rally", { unit: n.unit });
        choices(flow, n.question, ["Yes", "No"], (yes) => {
          if (yes === "Yes") return send("rally", { unit: n.unit, enemy_near: true });
          const roll2 = `Roll 2D6; ${n.rally_need}+ rallies`;
          dice(`${whose(n.unit)} rally: ${roll2}`, n.rolled_before, (how) => {
            if (how === null) return send("rally", { unit: n.unit });
            twoDice(flow, `${whose(n.unit)} rally: ${roll2}`, (roll) => send("rally", { unit: n.unit, roll }));
          });
        });
      }
    };
    if (n.step === "rally" && n.routs) {
      flow.append(el("p", { text: n.question || n.text }),
        el("div", { class: "choices" }, el("button", { class: "primary", text: "It routs: record it", onclick: begin })));
    } else begin();
  }

  // "Roll 3 dice; each 5+ hits": the count and the score are the server's.
  const rollText = (dice, need, what) =>
    `Roll ${dice} ${dice === 1 ? "die" : "dice"}; ` + (need > 6 ? `none can hit (${need}+ needed)` : `${dice === 1 ? "" : "each "}${need}+ ${what}`);
  // The hits from the player's dice: 0 to the number of dice rolled.
  function hitsChoice(flow, unit, dice, done) {
    const counts = [];
    for (let h = 0; h <= dice; h++) counts.push(String(h));
    choices(flow, `Hits from your dice for ${unit}`, counts, (h) => done(Number(h)));
  }

  // `then(result)`: after the status is read again, before the page is drawn.
  async function change(action, body, then) {
    const data = await api("POST", `/api/sessions/${encodeURIComponent(current.name)}/${action}`, { ...body, rev: current.rev });
    await openSession(current.name, false, then && (() => then(data.result)));
    return data.result;
  }

  // The answers given so far in an activation, kept per session, unit and
  // turn in the tab's sessionStorage (as `solo play` keeps them): a reload,
  // or a phone that killed the tab, asks the next question, not the first.
  const keptKey = (unit) => `vedette:${current.name}:${unit}:${current.status.turn}`;
  const kept = {
    get(unit) {
      try { return JSON.parse(sessionStorage.getItem(keptKey(unit)) || "null"); } catch (e) { return null; }
    },
    set(unit, answers) {
      try { sessionStorage.setItem(keptKey(unit), JSON.stringify(answers)); } catch (e) { /* storage off: nothing kept */ }
    },
    drop(unit) {
      try { sessionStorage.removeItem(keptKey(unit)); } catch (e) { /* storage off */ }
    },
    // Whatever the turn (an undo may take a turn back).
    dropAll(unit) {
      try {
        const prefix = `vedette:${current.name}:${unit}:`;
        for (const k of Object.keys(sessionStorage)) if (k.startsWith(prefix)) sessionStorage.removeItem(k);
      } catch (e) { /* storage off */ }
    },
  };

  async function ask(u, flow, answers) {
    const q = await api("POST", `/api/sessions/${encodeURIComponent(current.name)}/question`, { unit: u.name, answers });
    if (Object.keys(answers).length) kept.set(u.name, answers);
    if (q.question) {
      if (q.yes_no) {
        choices(flow, q.text, ["Yes", "No"], (a) => guarded(() => ask(u, flow, { ...answers, [q.question]: a === "Yes" })));
      } else {
        numberPad(flow, q.text, q.max, (n) => guarded(() => ask(u, flow, { ...answers, [q.question]: n })));
      }
      return;
    }
    // The die: vedette's, or the one the player rolled.
    flow.replaceChildren(el("p", { class: "question", text: `The die for ${u.name}: roll 1D6` }));
    const row = el("div", { class: "choices" });
    if (!current.status.physical_dice) row.append(el("button", { class: "primary wide", text: "Roll for me", onclick: () => guarded(() => activate(u, flow, answers)) }));
    const faces = el("div", { class: "choices faces" });
    for (let d = 1; d <= 6; d++) faces.append(el("button", { text: String(d), "aria-label": `I rolled a ${d}`, onclick: () => guarded(() => activate(u, flow, answers, d)) }));
    flow.append(row, el("p", { class: "hint", text: "Or the die you rolled:" }), faces);
    (row.firstChild || faces.firstChild).focus();
  }

  async function activate(u, flow, answers, roll) {
    const body = { unit: u.name, answers };
    if (roll) body.roll = roll;
    const r = await change("activate", body);
    kept.drop(u.name);
    const a = r.activation;
    const card = [...document.querySelectorAll(".card")].find((c) => c.querySelector(".name").textContent === u.name);
    const f = card ? card.querySelector(".flow") : flow;
    const rf = el("ul", { class: "rf" });
    for (const t of a.breakdown) rf.append(el("li", { text: `${t.value > 0 ? "+" : ""}${t.value} ${t.reason}` }));
    f.replaceChildren(
      el("p", { text: `RF ${a.rf} (${a.band}) · die ${a.roll}${a.dice === "player" ? " (yours)" : ""}` }),
      rf,
      el("p", { class: "instruction", text: a.instruction }));
    if (a.behaviour.charge_possible) chargeForm(current.status.units.find((x) => x.name === u.name) || u, f, true);
  }

  // ------------------------------------------------------------------ charge
  // "33/36 = 92%": an exact chance from the server.
  const pct = (f) => `${Math.round(f.p * 100)}% (${f.num}/${f.den})`;

  // The odds before the dice: every number is the engine's (charge-odds).
  function oddsPanel(o) {
    const box = el("div", { class: "odds" });
    box.append(el("p", { class: "odds-head", text: `Charge goes in: ${pct(o.odds.goes_in)}` }));
    const list = el("ul", { class: "odds-list" });
    const line = (f, text) => { if (f.num > 0) list.append(el("li", { text: `${pct(f)} ${text}` })); };
    list.append(el("li", { text: `Initiation check ${o.initiation_need}+ on 2D6: passes ${pct(o.odds.initiation_passes)}` }));
    line(o.odds.defender_fails, `the defender fails its morale check (${o.stand_target}+) and retreats`);
    line(o.odds.defender_stands, o.automatic ? "the defender stands automatically: melee" : `the defender stands (${o.stand_target}+): melee`);
    line(o.odds.contact_no_check, `contact inside the minimum distance (${o.min_distance}): melee, no morale check`);
    line(o.odds.falls_short, `out of reach (range ${o.max_range}): it still moves forward`);
    line(o.odds.no_charge, "the initiation check fails: no charge this turn");
    line(o.odds.halted_at_obstacle, "the second check at the obstacle fails: it halts there");
    line(o.odds.charger_fails, "both charging: the charger fails its own check and falls back");
    line(o.odds.defender_fled, "your unit fails its gut check and flees into cover: the charge halts");
    line(o.odds.square_melee, "your unit is in square: melee against the square, no morale check");
    box.append(list);
    return box;
  }

  function chargeForm(u, flow, append) {
    const form = el("div", { class: "charge" });
    const url = (what) => `/api/sessions/${encodeURIComponent(current.name)}/${what}`;
    const keep = u.name + ":charge";  // the form's answers, kept as an activation's are
    // The questions on one screen, each with its answer pressed: where the
    // rules allow a usual answer it is given (a frontal charge, the defender
    // not charging too, open ground, no pikes, no cover, no square), so a
    // usual charge is the distance, the unit charged and "Roll for me".
    // The defender classes, their wording and the weights are the session
    // ruleset's (charge-table), so a house rule's show.
    const start = (resumed) => guarded(async () => {
      interacting = true;
      const table = await api("GET", url("charge-table"));
      const a = { side: "front", pikes_facing: false, both_charging: false, path: "open", fear_exempt: false, refuge: false, square: false,
        ...(resumed || {}) };
      const kinds = Object.fromEntries(table.defenders.map((d) => [d.id, d.kind]));
      const weight = (table.units[u.name] || {}).weight;
      const units = lengthUnits(table.units_of_length);
      let o = null;  // the server's odds for the answers as they stand
      const pikesAsked = () => table.pikes_facing_stand && a.side === "front" && kinds[a.defender] === "foot";
      const complete = () => Number(a.distance || 0) > 0 && a.defender && (weight || a.attacker);
      // The answers as `vedette solo charge` takes them; `optional` adds the
      // optional rules' answers the server said apply.
      const answers = (optional) => {
        const b = { distance: String(a.distance).replace(/\.$/, "") + a.unit, defender: a.defender, both_charging: a.both_charging, path: a.path };
        if (!weight) b.attacker = a.attacker;
        if (a.side !== "front") b[a.side] = true;
        if (pikesAsked()) b.pikes_facing = a.pikes_facing;
        if (optional && optional.fear_may_apply) {
          b.fear_exempt = a.fear_exempt;
          if (!a.fear_exempt) b.refuge = a.refuge;
        }
        if (optional && optional.square_allowed) b.square = a.square;
        return b;
      };
      const pikesBox = el("div"), optionalBox = el("div"), oddsBox = el("div", { class: "odds-box" }), row = el("div", { class: "choices" });
      const rollMine = el("button", { class: "primary", text: "Roll for me", onclick: () => { if (o) beforeDice(() => go({})); } });
      const iRolled = el("button", { text: "I rolled", onclick: () => { if (o) { initiationNeed = o.initiation_need; beforeDice(mine); } } });
      row.append(rollMine, iRolled, el("button", { class: "cancel", text: "Start over", onclick: () => { kept.drop(keep); render(); } }));
      // The odds (and which optional rules apply) for the answers as they
      // stand, asked again after every change; the dice wait for them.
      let asking = false, again = false;
      const ready = () => {
        rollMine.disabled = iRolled.disabled = !(o && complete() && !asking);
        // vedette's dice, unless the player rolls their own; dice rolled before: vedette's again.
        rollMine.hidden = current.status.physical_dice && !(o && o.rolled_before);
        iRolled.hidden = !!(o && o.rolled_before);
      };
      const refresh = async () => {
        kept.set(keep, a);
        o = null;
        if (!complete()) { oddsBox.replaceChildren(el("p", { class: "hint", text: "The odds show once the distance and the unit charged are given." })); ready(); return; }
        again = true;
        if (asking) return;
        asking = busy = true;
        document.body.dataset.busy = "1";
        ready();
        try {
          while (again) {
            again = false;
            const base = await api("POST", url("charge-odds"), { unit: u.name, ...answers(null) });
            const full = base.fear_may_apply || base.square_allowed ? await api("POST", url("charge-odds"), { unit: u.name, ...answers(base) }) : base;
            if (again) continue;
            drawOptional(base);
            given = answers(base);
            o = full;
            oddsBox.replaceChildren(oddsPanel(full));
          }
        } catch (e) {
          if (!e.shown) notice(e.message);
        } finally {
          asking = busy = false;
          delete document.body.dataset.busy;
          ready();
        }
      };
      const set = (key) => (v) => { a[key] = v; if (key === "side" || key === "defender") drawPikes(); refresh(); };
      const yesNo = (question, key) => pick(question, [["Yes", true], ["No", false]], a[key], set(key));
      const drawPikes = () => pikesBox.replaceChildren(...(pikesAsked() ? [yesNo("Pikes or pole arms facing the charge?", "pikes_facing")] : []));
      // The optional rules the session's ruleset turns on (seed 001's Fear
      // of Charge, seed 004's Infantry Square), asked of foot not charging
      // too; the server's charge-odds says which apply.
      const drawOptional = (base) => {
        const kids = [];
        if (base.fear_may_apply) {
          kids.push(pick(`Fear of Charge: is your unit in cover of ${base.fear_exempt_cover} or better against the charge (not counting prone)?`,
            [["Yes", true], ["No", false]], a.fear_exempt, (v) => { a.fear_exempt = v; refresh(); }));
          if (!a.fear_exempt) kids.push(yesNo(`If it fails its gut check, is there such cover within ${base.fear_flee_distance} to flee to?`, "refuge"));
        }
        if (base.square_allowed) kids.push(yesNo("Infantry Square: does your unit form square to receive the charge?", "square"));
        optionalBox.replaceChildren(...kids);
      };
      form.replaceChildren(
        el("p", { class: "question", text: cs.target ? `${u.name} charges ${cs.target}` : `${u.name} charges` }),
        livePad(`Distance from ${whose(u.name)} front to the near edge of ${cs.target ? whose(cs.target) : "the target's"} nearest figure`, units, { value: a.distance, unit: a.unit },
          (value, unit) => { a.distance = value; a.unit = unit; refresh(); }),
        ...(weight ? [] : [pick(`Is ${u.name} light, medium or heavy cavalry?`, table.attacker_weights, a.attacker, set("attacker"))]),
        pick("The unit charged is", table.defenders.map((d) => [d.text, d.id]), a.defender, set("defender")),
        pick("Where does the charge strike?", ["front", "flank", "rear"], a.side, set("side")),
        pikesBox,
        yesNo("Is the defender charging too?", "both_charging"),
        // Seed 003's terrain on the way (the server's rule: with_path).
        pick("On the way to the target", [["Open ground", "open"], ["An obstacle (fence, hedge, wall)", "obstacle"],
          ["Uphill", "uphill"], ["The target is in rough terrain", "into_terrain"]], a.path, set("path")),
        optionalBox, oddsBox, row);
      a.unit = a.unit || units[0];
      drawPikes();
      await refresh();
    });
    // Sends the charge with vedette's dice (none given) or the player's.
    const send = async (dice) => {
      const body = { unit: u.name, ...given, ...dice };
      const data = await api("POST", url("charge"), { ...body, rev: current.rev });
      const c = data.result.charge;
      const odds = c.morale_check ? ` (they stood ${Math.round(c.p_stand * 100)}% of the time)` : "";
      kept.drop(u.name + ":charge");
      await openSession(current.name, false, () => results.add(u.name, `${u.name}: charge`, c.reaches ? `Charge: ${c.outcome}${odds}` : `Charge: ${c.outcome}`));
    };
    const go = (dice) => guarded(() => send(dice));
    let given = {};  // the answers, once all are in
    let initiationNeed = 0;  // the initiation check's score (charge-odds)
    // The player's dice: first the initiation check's (seed 003), then, if
    // the server says they are read, the defender's morale check's.
    const mine = () => twoDice(form, `${whose(u.name)} charge initiation check: roll 2D6; ${initiationNeed}+ charges`, (initiation) => guarded(async () => {
      const o = await api("POST", url("charge-odds"), { unit: u.name, ...given, initiation });
      if (o.needs_obstacle_dice) return obstacle(initiation, o);
      if (o.needs_gut_dice) return defender(initiation, o, {});
      if (!o.needs_defender_dice) return send({ initiation });
      defender(initiation, o, {});
    }));
    // An obstacle on the way: the second initiation check's dice (seed 003 L68), then on.
    const obstacle = (initiation, o) => twoDice(form, `An obstacle: ${whose(u.name)} second initiation check: roll 2D6; ${o.initiation_need}+ goes on`,
      (obstacle_roll) => guarded(async () => {
        const p = await api("POST", url("charge-odds"), { unit: u.name, ...given, initiation, obstacle_roll });
        if (!p.needs_defender_dice && !p.needs_gut_dice) return send({ initiation, obstacle_roll });
        defender(initiation, p, { obstacle_roll });
      }));
    const defender = (initiation, o, extra) => {
      if (o.needs_gut_dice && !extra.gut_roll) {
        // Seed 001: your infantry's gut check, before the morale check.
        const ask = (q, done) => (o.gut_dice === 1
          ? choices(form, q, ["1", "2", "3", "4", "5", "6"], (d) => done([Number(d)]))
          : twoDice(form, `${q}: roll 2D6`, done));
        return ask(`Fear of Charge: your unit's gut check (${o.gut_need})`, (gut) => guarded(async () => {
          const p = await api("POST", url("charge-odds"), { unit: u.name, ...given, initiation, ...extra, gut_roll: gut });
          if (!p.needs_defender_dice) return send({ initiation, ...extra, gut_roll: gut });
          defender(initiation, p, { ...extra, gut_roll: gut });
        }));
      }
      twoDice(form, `Passed (${o.initiation.total}, needs ${o.initiation.need}). The defender's morale check: roll 2D6; ${o.stand_target}+ stands`,
        (roll) => {
          if (!o.needs_charger_dice) return go({ initiation, roll, ...extra });
          twoDice(form, `Both charging: ${whose(u.name)} own morale check: roll 2D6; ${o.charger_need}+ holds`,
            (charger_roll) => go({ initiation, roll, charger_roll, ...extra }));
        });
    };
    // The charge form's answers in `solo play`'s words (the draft the
    // server reads: sims/solo's next_charge_field).
    const draftWords = (b) => {
      const yn = (v) => (v ? "yes" : "no");
      const d = { distance: b.distance, defender: b.defender, side: b.flank ? "flank" : b.rear ? "rear" : "front",
        both_charging: yn(b.both_charging), path: b.path };
      if (b.attacker) d.attacker = b.attacker;
      for (const k of ["pikes_facing", "fear_exempt", "refuge", "square"]) if (k in b) d[k] = yn(b[k]);
      return d;
    };
    // Before the dice, the server says whether anything is asked first: a
    // declared target out of reach asks whether another of your units is
    // within it (seed 003 L56). Yes saves the answers and the switch; the
    // new target is asked next, then its measures.
    const beforeDice = async (then) => {
      let next = null;
      await guarded(async () => {
        const step = await api("POST", url("charge-step"), { unit: u.name, answers: draftWords(given) });
        if (step.field !== "switch") { next = then; return; }
        choices(form, step.question, [["Yes: another is within reach", "yes"], ["No", "no"]], (v) => {
          if (v === "no") return then();
          guarded(async () => {
            await change("charge-answer", { unit: u.name, answers: { ...draftWords(given), switch: "yes" } });
            kept.drop(keep);
          });
        });
      });
      if (next) next();
    };
    // What the "(Charge?)" needs next is the server's (charge_step, in solo
    // play's order): the offer, then the declaration's target (seed 003
    // L24) and whether its front rank sees it (L34), then, once the
    // initiative is rolled, the charge's measures and dice.
    const cs = u.charge_step || { field: "charge" };
    const answer = (answers) => guarded(() => change("charge-answer", { unit: u.name, answers }));
    // Not seen: no declaration (the server says so, as solo play does).
    const notSeen = (target) => guarded(() => change("charge", { unit: u.name, not_visible: true, target },
      (r) => { if (r && r.outcome) results.add(u.name, `${u.name}: charge`, r.outcome); }));
    if (cs.field === "charge") {
      // Seed 003 L40: an enemy at least partly in its arc, in the words the
      // figures settle (the server's, as solo play asks it).
      form.append(el("p", { class: "question", text: cs.question ? `${u.name} may charge. ${cs.question}` : `${u.name} may charge.` }),
        cs.help ? el("p", { class: "hint", text: cs.help }) : "",
        el("div", { class: "choices" },
          el("button", { class: "primary", text: "Charge", onclick: () => answer({ charge: "yes" }) }),
          el("button", { text: "Decline", onclick: () => guarded(async () => { await change("charge", { unit: u.name, decline: true }); kept.drop(keep); }) })));
    } else if (cs.field === "target") {
      // A name: one of those the session has heard (a tap), or typed. With
      // the declaration (not after a switch), its sight on the same screen,
      // asked after it as solo play asks it (the server's "sight"): usually
      // yes, pressed.
      const input = el("input", { type: "text", class: "name", "aria-label": "Its name", autocomplete: "off", enterkeyhint: "done", maxlength: "64" });
      let seen = true;
      const named = () => {
        const t = input.value.trim();
        if (!t) return notice("Type the name of one of your units.");
        notice("");
        if (!cs.sight) return answer({ target: t });
        if (seen) return answer({ target: t, visible: "yes" });
        notSeen(t);
      };
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); named(); } });
      const known = (current.status.your_units || []).map((n) => el("button", { text: n, onclick: () => { input.value = n; } }));
      form.append(el("p", { class: "question", text: cs.question }),
        ...(known.length ? [el("div", { class: "choices long" }, ...known)] : []),
        el("div", { class: "name-row" }, input),
        ...(cs.sight ? [pick(cs.sight.question, [["Yes", true], ["No", false]], true, (v) => { seen = v; })] : []),
        el("div", { class: "choices" }, el("button", { class: "primary", text: "OK", onclick: named })));
    } else if (cs.field === "visible") {
      form.append(el("p", { class: "question", text: cs.question }),
        el("div", { class: "choices" },
          el("button", { class: "primary", text: "Yes", onclick: () => answer({ visible: "yes" }) }),
          el("button", { text: "No", onclick: () => notSeen(cs.target || "") })));
    } else if (!cs.now) {
      // Declared: its charge comes in its side's move, after the initiative.
      form.append(el("p", { class: "instruction", text: cs.declared || "" }));
    }
    if (append) flow.append(form); else flow.replaceChildren(form);
    // The charge's measures once it is made: its form (as it was, after a reload).
    if (cs.field === "form" && cs.now) setTimeout(() => start(kept.get(keep) || null), 0);
  }

  // ------------------------------------------------------------- tools, keys
  // Undo and redo say what they took back or put again (the server's words).
  // An undone step of a unit (its charge, or the activation that offered
  // it) takes the charge form's kept answers with it: the form asks afresh.
  const step = (action) => guarded(async () => {
    const data = await api("POST", `/api/sessions/${encodeURIComponent(current.name)}/${action}`, { rev: current.rev });
    // (An undone initiative too: the charge's measures are asked afresh.)
    if (action === "undo") for (const u of current.status.units) kept.dropAll(u.name + ":charge");
    reactionDice.drop();  // (a half-answered reaction goes with any undo or redo)
    await openSession(current.name);
    notice((data.said || []).join(" "));
  });
  $("undo").addEventListener("click", () => step("undo"));
  $("redo").addEventListener("click", () => step("redo"));
  // "Next turn" asks first when something of this turn is not done (the
  // server lists it: units that have not acted, a step of the turn).
  $("next-turn").addEventListener("click", () => {
    if (!current || busy) return;
    const left = current.status.turn_left || [];
    if (!left.length) return guarded(() => change("next-turn", {}));
    interacting = true;
    const box = $("step");
    box.hidden = false;
    const flow = el("div", { class: "flow" });
    box.replaceChildren(el("h2", { text: `End turn ${current.status.turn}?` }), flow);
    flow.append(el("p", { class: "question", text: "Not done yet: " + left.join("; ") + "." }),
      el("div", { class: "choices" },
        el("button", { class: "primary", text: `End turn ${current.status.turn}`, onclick: () => guarded(() => change("next-turn", {})) }),
        el("button", { text: "Back", onclick: () => render() })));
    box.scrollIntoView({ block: "nearest" });
    flow.querySelector("button").focus();
  });
  $("show-log").addEventListener("click", () => guarded(async () => {
    const data = await api("GET", `/api/sessions/${encodeURIComponent(current.name)}/log`);
    const list = $("log-list");
    list.replaceChildren();
    for (const line of String(data.result).split("\n").filter(Boolean)) list.append(el("li", { text: line, class: /undone/.test(line) ? "undone" : "" }));
    show("log");
  }));
  $("close-log").addEventListener("click", () => show("session"));
  $("home").addEventListener("click", (ev) => { ev.preventDefault(); guarded(listSessions); });
  document.addEventListener("keydown", (ev) => {
    if (!current || ev.target.closest("input, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const map = { u: "undo", r: "redo", t: "next-turn", l: "show-log" };
    if (map[ev.key]) { ev.preventDefault(); $(map[ev.key]).click(); }
  });

  // A tap on a card's or a step's question: the player is answering, and
  // the poll leaves the page alone until the next redraw.
  document.addEventListener("click", (ev) => {
    if (ev.target.closest && ev.target.closest(".flow, #step")) interacting = true;
  }, true);

  // Another window or the terminal may change the session: look every few
  // seconds and redraw (saying so) when it did, unless a question is open.
  setInterval(async () => {
    if (!current || busy || document.hidden || $("session").hidden) return;
    if (interacting) return;
    try {
      const data = await api("GET", "/api/sessions/" + encodeURIComponent(current.name));
      if (data.rev !== current.rev) {
        current = { name: current.name, rev: data.rev, status: data.result };
        render();
        notice("The session changed elsewhere (another window or the terminal); this is how it stands now.");
      }
    } catch (e) { /* the next poll tries again */ }
  }, 3000);

  const start = params.get("session");
  guarded(() => (start ? openSession(start) : listSessions()));
})();
