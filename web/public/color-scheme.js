// The colour scheme before the first paint: the player's choice (saved by src/App.tsx under this
// key: 'light', 'dark' or 'auto'), else the system's. Mantine keeps it up to date afterwards.
(function () {
  var scheme = 'light';
  try {
    var chosen = window.localStorage.getItem('marketcraft-color-scheme');
    if (chosen === 'light' || chosen === 'dark') scheme = chosen;
    else if (window.matchMedia('(prefers-color-scheme: dark)').matches) scheme = 'dark';
  } catch (error) {
    // No storage (private mode): light.
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
