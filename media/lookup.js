// Runs under the panel's CSP (script nonce). Only posts a fixed message; never reads API data into the DOM.
(function () {
  const vscode = acquireVsCodeApi();
  const button = document.getElementById('open-profile');
  if (button) button.addEventListener('click', () => vscode.postMessage({ type: 'openProfile' }));
})();
