// The table's rules and odds in a panel over the table, not a new tab: the table, its clock and
// your moves stay in sight and in reach. A link marked `data-panel` opens its page's <main> in
// the panel (the odds form asks again inside it); a click with a modifier key, or without
// scripts, still opens the page in a tab. Escape or "Close" closes the panel. On a wide screen
// the table moves aside for it (`body.panel-open`), so the bids stay in sight.
const $ = (id) => document.getElementById(id);

let opener = null; // the link that opened the panel, to give focus back

async function show(url, title) {
  const panel = $("panel");
  $("panel-title").textContent = title;
  panel.hidden = false;
  document.body.classList.add("panel-open");
  panel.setAttribute("aria-busy", "true");
  try {
    const answer = await fetch(url, { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const main = page.querySelector("main");
    $("panel-body").replaceChildren(...(main ? main.childNodes : []));
  } catch {
    $("panel-body").replaceChildren(); // offline: the link itself still works in a tab
    window.open(url, "_blank");
    close();
    return;
  } finally {
    panel.removeAttribute("aria-busy");
  }
  for (const form of $("panel-body").querySelectorAll("form")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const query = new URLSearchParams(new FormData(form));
      show(`${url.split("?")[0]}?${query}`, title);
    });
  }
  $("panel-close").focus();
}

function close() {
  $("panel").hidden = true;
  document.body.classList.remove("panel-open");
  opener?.focus();
  opener = null;
}

/** Wire the `data-panel` links and the panel's "Close". */
export function wirePanel() {
  for (const link of document.querySelectorAll("a[data-panel]")) {
    link.addEventListener("click", (event) => {
      if (event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      opener = link;
      show(link.href, link.textContent);
    });
  }
  $("panel-close").addEventListener("click", close);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("panel").hidden) close();
  });
}
