// What the browser tests measure in a page, and the changes they make to it.
// page_states.py calls these by name (run(page, "readAtLoad")); the order it
// calls them in, and why, is said there.  One expression: an object of
// functions, each taking at most one argument.
(() => {
    // WCAG 2's relative luminance of an sRGB colour [r, g, b] (0-255), and the
    // contrast ratio of two luminances.
    const luminance = rgb => rgb.map(v => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, k) => s + v * [0.2126, 0.7152, 0.0722][k], 0);
    const ratio = (x, y) => (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);

    return {
    // The contrast ratio of two colours [r, g, b].
    contrast: ([a, b]) => ratio(luminance(a), luminance(b)),
    luminance,

    // The page's article text, math sizes, the idea page's table, figure labels and
    // question boxes: read straight after loading, before anything is touched.
    readAtLoad: () => {
        const rect = e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
        const article = document.querySelector('article');
        const table = document.querySelector('.softmax-widget table');
        return {
            text: article ? article.innerText : null,
            math: [...document.querySelectorAll('article math')].map(rect),
            block_math_heights: [...document.querySelectorAll('article math[display=block]')]
                .map(e => e.getBoundingClientRect().height),
            widget_table: table ? table.innerText : null,
            page_fits: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
            compact_tables_fit: [...document.querySelectorAll('.lesson-compact table')]
                .map(t => t.scrollWidth <= t.parentElement.clientWidth + 1),
            figures: [...document.querySelectorAll('figure svg[role=img]')].map(svg => ({
                label: svg.getAttribute('aria-label'), width: svg.getBoundingClientRect().width})),
            quiz_boxes: [...document.querySelectorAll('.lesson-quiz fieldset')].map(f => {
                const box = f.getBoundingClientRect(), legend = f.querySelector('legend').getBoundingClientRect();
                const border = parseFloat(getComputedStyle(f).borderTopWidth);
                return {question: f.querySelector('legend').textContent.slice(0, 40), border,
                        above: box.top + border - legend.top, left: box.left - legend.left,
                        right: legend.right - box.right, below: legend.bottom - box.bottom};
            }),
        };
    },

    // A figure's axis labels ("key 1", "token 0") against the page behind them.
    labelContrast: () => {
        const rgb = s => s.match(/[\d.]+/g).map(Number);
        const page = rgb(getComputedStyle(document.body).backgroundColor);
        return [...document.querySelectorAll('svg.lesson-figure text[fill*="lighter"]')].map(t => {
            const [r, g, b, a = 1] = rgb(getComputedStyle(t).fill);
            const ink = [r, g, b].map((v, k) => v * a + page[k] * (1 - a));
            return [t.textContent, ratio(luminance(ink), luminance(page.slice(0, 3)))];
        });
    },

    // A pixel of a focus ring must differ from the unfocused pixel by 3:1
    // (WCAG 2.2's focus appearance; 2.1 AA asks only that focus is visible).
    changedPixels: async ([before, after]) => {
        const load = src => new Promise(done => { const i = new Image(); i.onload = () => done(i); i.src = src; });
        const [a, b] = await Promise.all([load(before), load(after)]);
        const pixels = img => { const c = document.createElement('canvas'); c.width = img.width;
            c.height = img.height; const g = c.getContext('2d'); g.drawImage(img, 0, 0);
            return g.getImageData(0, 0, img.width, img.height).data; };
        const [p, q] = [pixels(a), pixels(b)];
        const lum = (d, i) => luminance([d[i], d[i + 1], d[i + 2]]);
        let changed = 0;
        for (let i = 0; i < p.length; i += 4) {
            if (ratio(lum(p, i), lum(q, i)) >= 3) changed += 1;
        }
        return changed;
    },

    // A plain range input and button, with no styles of their own, at the
    // article's top; removePlainControls takes them away again.
    plainControls: () => {
        const p = document.createElement('p');
        p.id = 'plain-controls';
        p.innerHTML = '<input id="plain-range" type="range" aria-label="test"> '
                    + '<button id="plain-button" type="button">test</button>';
        document.querySelector('article').prepend(p);
    },

    removePlainControls: () => {
        document.getElementById('plain-controls').remove();
        if (document.activeElement) document.activeElement.blur();
    },

    blur: () => { if (document.activeElement) document.activeElement.blur(); },

    // Focus the element just before the first match of a selector (before the
    // details or form it sits in), so one Tab reaches it as a keyboard user would.
    focusJustBefore: selector => {
        const el = document.querySelector(selector);
        const marker = document.createElement('span');
        marker.tabIndex = -1;
        (el.closest('details, form') || el).before(marker);
        marker.focus();
        marker.remove();
    },

    // Whether keyboard focus is on the selector's element.  The colour toggle's
    // focusable element is one of the hidden radio inputs in its form.
    focused: selector => {
        const el = document.querySelector(selector), a = document.activeElement;
        return el === a || a.matches('.md-option') && a.form === el.closest('form');
    },

    removeTokenSample: () => { document.getElementById('token-sample')?.remove(); },

    showEverything: () => {
        document.querySelectorAll('article details').forEach(d => d.open = true);
        const style = document.createElement('style');
        style.textContent = '.tabbed-set > .tabbed-content > .tabbed-block { display: block !important }';
        document.head.append(style);
    },

    // What a reader cannot see without scrolling sideways, measured in the page.
    // The checker's output (language-text) is left out: it is wrapped by the checker.
    hiddenSideways: () => {
        const over = el => el.scrollWidth - el.clientWidth;
        const text = el => el.innerText.trim().slice(0, 40);
        const found = {};
        found.page = over(document.documentElement);
        found.tables = [...document.querySelectorAll('article .md-typeset__scrollwrap')]
            .filter(w => over(w) > 0).map(w => `${text(w)}: ${over(w)}px`);
        found.code = [...document.querySelectorAll('article .highlight:not(.language-text) pre > code')]
            .filter(c => over(c) > 0).map(c => `${text(c)}: ${over(c)}px`);
        // A name in code (no spaces) laid out on two lines was broken mid-word.
        found.broken_names = [...document.querySelectorAll('article :not(pre) > code')]
            .filter(c => !/\s/.test(c.textContent) && c.getClientRects().length > 1)
            .map(c => c.textContent);
        // Text under a code block's copy button.
        found.covered = [];
        for (const pre of document.querySelectorAll('article pre')) {
            const button = pre.querySelector('.md-code__button'), code = pre.querySelector('code');
            if (!button || !code) continue;
            const b = button.getBoundingClientRect();
            const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
            for (let node; (node = walk.nextNode());) {
                if (!node.textContent.trim()) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                for (const r of range.getClientRects())
                    if (r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom)
                        found.covered.push(node.textContent.trim().slice(0, 40));
            }
        }
        // Display formulas wider than the column.
        found.wide_formulas = [...document.querySelectorAll('.math-block')]
            .filter(block => block.scrollWidth > block.clientWidth + 1)
            .map(block => block.textContent.trim().slice(0, 40));
        return found;
    },

    // Code lines laid out on more than one row whose later rows start at or left
    // of the line's first character: they read as a new line of code.
    wrappedToTheLeft: () => {
        const found = [];
        const lines = document.querySelectorAll(
            'article .highlight pre > code > span:is([id^="__span"], .lesson-report-line)');
        for (const line of lines) {
            if (!line.getClientRects().length) continue;
            const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
            let start = null;
            for (let node; !start && (node = walk.nextNode());) {
                const at = node.textContent.search(/\S/);
                if (at < 0) continue;
                const range = document.createRange();
                range.setStart(node, at);
                range.setEnd(node, at + 1);
                start = range.getBoundingClientRect();
            }
            if (!start) continue;
            const all = document.createRange();
            all.selectNodeContents(line);
            for (const r of all.getClientRects()) {
                if (r.width < 1 || r.top < start.bottom - 1) continue;     // the first row
                if (r.left <= start.left + 1) {
                    found.push(`${line.textContent.trim().slice(0, 50)} (row at ${Math.round(r.left - start.left)}px)`);
                    break;
                }
            }
        }
        return found;
    },

    tokenSample: classes => {
        const block = document.createElement('div');
        block.id = 'token-sample';
        block.className = 'language-python highlight';
        block.innerHTML = '<pre><code>' + classes.map(c =>
            `<span class="${c}">token_${c}</span>`).join('\n') + '</code></pre>';
        document.querySelector('article').prepend(block);
        return block.querySelectorAll('span').length;
    },

    axeNodesInside: ([violations, regions]) => {
        const find = target => {            // axe's target: a selector per frame / shadow root
            let root = document, el = null;
            for (const step of target) {
                for (const sel of Array.isArray(step) ? step : [step]) {
                    el = root.querySelector(sel);
                    if (!el) return null;
                    root = el.shadowRoot || el;
                }
            }
            return el;
        };
        const counts = Object.fromEntries(regions.map(r => [r, document.querySelectorAll(r).length]));
        const inside = violations.map(v => v.nodes.map(n => {
            const el = find(n.target);
            return el ? regions.filter(r => el.closest(r)) : null;
        }));
        return {counts, inside};
    },

    // The page scrolled back to the top, as loaded, with nothing focused, once the
    // transitions this starts (the header's title fades back) have ended: axe
    // computes colours as drawn, so it must not see a fade half-way.
    backToTheTop: async () => {
        window.scrollTo(0, 0);
        if (document.activeElement) document.activeElement.blur();
        const frame = () => new Promise(done => requestAnimationFrame(done));
        for (let still = 0, frames = 0; still < 2 && frames < 200; frames++) {
            await frame();
            const moving = document.getAnimations().filter(a => a.playState === 'running'
                && Number.isFinite(a.effect.getComputedTiming().endTime));
            still = moving.length ? 0 : still + 1;
            await Promise.all(moving.map(a => a.finished.catch(() => null)));
        }
    },

    // What each copy button put on the clipboard, next to the code it copies.
    // Material copies with clipboard.js, which writes through a hidden textarea and
    // execCommand("copy"); the page's copy event sees that textarea's selection.
    clickEveryCopyButton: async () => {
        const copied = [];
        let last = null;
        document.addEventListener('copy', () => {
            const box = document.activeElement;
            last = box && box.tagName === 'TEXTAREA' ? box.value : String(getSelection());
        }, true);
        for (const button of document.querySelectorAll('article button[data-clipboard-target]')) {
            const code = document.querySelector(button.getAttribute('data-clipboard-target'));
            last = null;
            button.scrollIntoView();
            button.click();
            await new Promise(resolve => setTimeout(resolve, 0));
            const runs = code.closest('[data-copy]');          // a >>> session: its code alone
            copied.push({text: code.textContent, copied: last,
                         runs: runs && runs.getAttribute('data-copy'),
                         language: (code.closest('.highlight') || code.parentElement).className});
        }
        return copied;
    },
    };
})()
