// Shared by the web hand and the spectator page (served as /recap.js).
// The match's recap once it has ended: its facts as text, its picture fetched with this
// page's own credential (never in an address) and shown from a blob, once per recap.
let recapShown = null;
async function renderRecap(recap, labels, credential) {
  const box = $("recap");
  box.hidden = !recap;
  if (!recap) return;
  $("recap-title").textContent = labels.recap + " · " + recap.title;
  $("recap-facts").replaceChildren(...recap.facts.map((line) => {
    const item = document.createElement("li"); item.textContent = line; return item; }));
  const chart = $("recap-chart");
  chart.alt = labels.recap_chart;
  if (recapShown === recap.key) return;
  recapShown = recap.key;
  try {
    const response = await fetch(recap.image, {headers: {Authorization: "Bearer " + credential}});
    if (!response.ok) throw new Error(String(response.status));
    if (chart.src) URL.revokeObjectURL(chart.src);
    chart.src = URL.createObjectURL(await response.blob());
    chart.hidden = false;
    chart.dataset.loaded = "1";
  } catch (error) {
    recapShown = null;  // the next state tries again
    chart.hidden = true;
  }
}
