/*
 * What the API reference page (/api/docs) adds to swagger-ui's own files so that it passes the
 * same accessibility check as every other page (WCAG 2.2 AA, axe): served by @fastify/swagger-ui
 * as files of the page (theme), so the CSP needs no inline script or style.
 */

/**
 * Text colours with a contrast of at least 4.5:1 where swagger-ui's fall short (white on its
 * method badges, its version badges, links, the Authorize button, a parameter's "in").
 */
export const THEME_CSS = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f6fb8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #13794a; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5200; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b71c1c; }
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #0d5aa7; }
.swagger-ui .info .title small { background: #5b616d; }
.swagger-ui .info .title small.version-stamp { background-color: #4d7000; }
.swagger-ui .info a, .swagger-ui .info .url { color: #1f5fae; }
.swagger-ui .btn.authorize { border-color: #13794a; color: #13794a; }
.swagger-ui .btn.authorize svg { fill: #13794a; }
.swagger-ui .parameter__in, .swagger-ui .parameter__type { color: #595959; }
`;

/**
 * swagger-ui draws the server choice as a <select> without a label: name it. Its code examples
 * scroll past a height (a long answer, such as the emergency lookup's): a scrolling region must be
 * reachable by keyboard, so each takes focus. Its page has no viewport meta, so a
 * phone would lay it out 980 px wide and shrink it: give it the device's width.
 */
export const THEME_JS = `(function () {
  if (!document.querySelector('meta[name="viewport"]')) {
    var viewport = document.createElement('meta');
    viewport.name = 'viewport';
    viewport.content = 'width=device-width, initial-scale=1';
    document.head.appendChild(viewport);
  }
  function nameServerChoice() {
    var select = document.getElementById('servers');
    if (select && !select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Server');
    var examples = document.querySelectorAll('.swagger-ui .highlight-code > .microlight:not([tabindex])');
    for (var i = 0; i < examples.length; i += 1) {
      examples[i].setAttribute('tabindex', '0');
    }
  }
  new MutationObserver(nameServerChoice).observe(document.documentElement, { childList: true, subtree: true });
})();
`;
