import 'server-only';
import type { DisplayLocale } from '@/lib/db/schema';
import { apartmentNumber } from '@/lib/i18n/format';
import type { DisplayRoom, DisplayScreen, DisplaySlot } from './screen';

/** The `display` catalogue's sentences, translated (lib/displays/serve.ts makes it). */
export type DisplayTranslate = (key: string, values?: Record<string, string | number>) => string;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text for HTML, attributes included: every name, reason and sentence goes through here. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const TAG: Record<DisplayLocale, string> = { sv: 'sv-SE', en: 'en-GB' };

/**
 * Seconds between a display's pages, when its rooms do not all fit its screen at once: long
 * enough to read a room's line from the door, short enough that every room shows within a
 * minute on a screen of several pages.
 */
export const DISPLAY_PAGE_S = 10;

function timeOf(ms: number, timeZone: string, locale: DisplayLocale): string {
  return new Intl.DateTimeFormat(TAG[locale], { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
}

function dayName(date: string, locale: DisplayLocale): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(TAG[locale], { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(Date.UTC(y, m - 1, d));
}

function nowLine(room: DisplayRoom, screen: DisplayScreen, locale: DisplayLocale, t: DisplayTranslate): { kind: string; text: string } {
  const now = room.now;
  if (now.kind === 'free') return { kind: 'free', text: t('freeNow') };
  if (now.kind === 'none') return { kind: 'none', text: t('noSlotNow') };
  const time = timeOf(now.untilMs, screen.timeZone, locale);
  if (now.kind === 'closed') return { kind: 'closed', text: t('closedUntil', { time, reason: now.reason }) };
  return { kind: now.kind, text: t(now.kind === 'in-use' ? 'inUseUntil' : 'maintenanceUntil', { time }) };
}

function nextFreeLine(room: DisplayRoom, screen: DisplayScreen, locale: DisplayLocale, t: DisplayTranslate): string {
  // Beside "Free now", the running slot is the free one: no *other* is, rather than none at all.
  if (!room.nextFree) return t(room.now.kind === 'free' ? 'noOtherFreeSlot' : 'noFreeSlot');
  const start = timeOf(room.nextFree.startMs, screen.timeZone, locale);
  const end = timeOf(room.nextFree.endMs, screen.timeZone, locale);
  const today = room.days[0]?.date;
  const startDay = new Intl.DateTimeFormat('en-CA', { timeZone: screen.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(room.nextFree.startMs);
  return t(startDay === today ? 'nextFreeToday' : 'nextFreeTomorrow', { start, end });
}

function slotHtml(slot: DisplaySlot, screen: DisplayScreen, locale: DisplayLocale, t: DisplayTranslate): string {
  const time = `${timeOf(slot.startMs, screen.timeZone, locale)}–${timeOf(slot.endMs, screen.timeZone, locale)}`;
  const state = t(`slot.${slot.state}`);
  const extra = slot.apartment ? ` · ${escapeHtml(t('apartment', { apartment: apartmentNumber(slot.apartment) }))}` : slot.reason ? ` · ${escapeHtml(slot.reason)}` : '';
  return `<li class="slot s-${slot.state}"><span class="t">${escapeHtml(time)}</span> <span class="st">${escapeHtml(state)}${extra}</span></li>`;
}

/** The rooms part of the screen: what the script swaps in on every update. */
export function renderRooms(screen: DisplayScreen, locale: DisplayLocale, t: DisplayTranslate): string {
  if (screen.loading) return `<p class="note">${escapeHtml(t('loading'))}</p>`;
  if (screen.rooms.length === 0) return `<p class="note">${escapeHtml(t('noRooms'))}</p>`;
  const rooms = screen.rooms.map((room) => {
    const now = nowLine(room, screen, locale, t);
    const days = room.days
      .map(
        (day, i) =>
          `<section class="day"><h3>${escapeHtml(i === 0 ? t('today') : t('tomorrow'))} <span class="date">${escapeHtml(dayName(day.date, locale))}</span></h3>` +
          (day.slots.length ? `<ol class="strip">${day.slots.map((s) => slotHtml(s, screen, locale, t)).join('')}</ol>` : `<p class="note">${escapeHtml(t('noSlots'))}</p>`) +
          '</section>',
      )
      .join('');
    return `<article class="room"><h2>${escapeHtml(room.name.trim() || t('unnamedRoom'))}</h2><p class="now n-${now.kind}">${escapeHtml(now.text)}</p><p class="next">${escapeHtml(nextFreeLine(room, screen, locale, t))}</p>${days}</article>`;
  });
  return rooms.join('');
}

/** Sentences the script needs (it holds no catalogue): "#" stands for the number or the time. */
export function scriptTexts(t: DisplayTranslate): Record<string, string> {
  return {
    updated: t('updatedAgo', { seconds: '#' }),
    updatedMinutes: t('updatedMinutesAgo', { minutes: '#' }),
    offline: t('offlineSince', { time: '#' }),
    off: t('switchedOff'),
    page: t('pageOf', { page: '#', pages: '%' }),
  };
}

/**
 * The tiny script of a display; no framework. The clock and the date (which roll over at midnight
 * and at DST changes by themselves: Intl in the system's zone, two formatters made once), "updated
 * … ago", and the rooms: the display's own event stream (/events) says when they changed, and the
 * script asks for them (/screen), one request at a time, and also every `every` seconds (a change
 * made at the booking system itself reaches the portal only by a re-read, decision 030). A failed
 * read marks the screen offline and waits twice as long as the last one, up to 2 minutes, until one
 * succeeds; a broken stream asks at once only if the screen is not already offline (else its own
 * backoff would undo that one). The stream is tried again with backoff (1 s doubling to 60 s,
 * jittered), from the last event id it saw. A closed stream loses its listeners with it (steady
 * memory over months, e2e display-live). A new local day asks at once. "Switched off" (the stream's
 * last frame, or 404/410 from /screen) ends everything; "reload" (renamed, another language) loads
 * the page again, once it answers (a browser's error page would have no script to recover).
 * "Updated … ago" counts from the service's last read, or from the last update the stream
 * brought, whichever is later (the rooms just read hold that change).
 * On a screen of a tablet's width or more, every room shows: the cards are sized to the screen
 * (the type shrinks, down to 13 px, until the tallest card fits), and rooms that still do not fit
 * go on pages that turn every DISPLAY_PAGE_S seconds, with "page 1 of 2" and dots; a phone (under
 * 700 px) scrolls instead.
 */
export const DISPLAY_SCRIPT = `(()=>{const b=document.body,d=b.dataset,T=JSON.parse(d.texts),p=location.pathname,u=p+'/screen',w=Number(d.every)*1000;
let at=Number(d.refreshed)||0,la=0,live=0,pg=0,lh=-1,off=0,miss=0,timer=0,es=null,last=d.event||'',back=1000,rt=0,busy=0,again=0,gone=0,day='';
const F=(o)=>new Intl.DateTimeFormat(d.lang,Object.assign({timeZone:d.tz},o)),hm=F({hour:'2-digit',minute:'2-digit',hourCycle:'h23'}),dm=F({weekday:'long',day:'numeric',month:'long'}),$=(i)=>document.getElementById(i);
function tick(){if(gone)return;const n=Date.now(),k=dm.format(n);$('clock').textContent=hm.format(n);
if(k!==day){$('date').textContent=k;if(day)load();day=k;}
if(off){$('fresh').textContent=T.offline.replace('#',hm.format(off));$('fresh').className='offline';}
else if(at){const s=Math.max(0,Math.round((n-at)/1000));$('fresh').textContent=s<120?T.updated.replace('#',s):T.updatedMinutes.replace('#',Math.round(s/60));$('fresh').className='';}}
const H={open(){back=1000;if(off)load();},changed(m){last=m.lastEventId||last;live=1;load();},
end(m){let r='';try{r=JSON.parse(m.data).reason;}catch{}if(r==='switched-off')stop();else if(r==='reload')reload();else retry();},error(){retry();if(!off)load();}};
function drop(){if(es){es.close();for(const k in H)es.removeEventListener(k,H[k]);es=null;}}
function stop(){gone=1;drop();clearTimeout(timer);clearTimeout(rt);clearInterval(ti);clearInterval(pi);b.className='';b.innerHTML='<main class="gone"><p>'+T.off.replace(/[<&]/g,'')+'</p></main>';}
async function load(){if(gone)return;if(busy){again=1;return;}busy=1;clearTimeout(timer);let next=w;const t0=Date.now(),lv=live;live=0;
try{const r=await fetch(u,{cache:'no-store',headers:{accept:'application/json'}});
if(r.status===404||r.status===410){stop();return;}
if(r.status===429)next=1000*(Number(r.headers.get('retry-after'))||60);
if(!r.ok)throw 0;const j=await r.json();$('rooms').innerHTML=j.html;if(lv)la=t0;at=Math.max(j.refreshedAt?Date.parse(j.refreshedAt):0,la);off=0;miss=0;show();}
catch{if(!off)off=Date.now();miss=Math.min((miss||w)*2,120000);next=Math.max(next,miss);}finally{busy=0;}
if(gone)return;tick();timer=setTimeout(load,next);if(again){again=0;load();}}
function connect(){rt=0;if(gone||!window.EventSource)return;drop();const e=es=new EventSource(p+'/events?v='+encodeURIComponent(d.v||'')+(last?'&lastEventId='+last:''));for(const k in H)e.addEventListener(k,H[k]);}
function reload(){drop();fetch(p,{cache:'no-store'}).then((r)=>{if(r.ok)location.reload();else if(r.status===404||r.status===410)stop();else retry();},retry);}
function retry(){drop();if(gone||rt)return;rt=setTimeout(connect,back*(0.75+Math.random()/2));back=Math.min(back*2,60000);}
function pages(){const R=$('rooms'),c=[...R.querySelectorAll('.room')],z=b.style;for(const e of c)e.hidden=false;z.fontSize='';R.style.cssText='';
if(!(window.innerWidth>=700)||c.length<2){b.classList.remove('paged');lh=R.clientHeight;return[c];}b.classList.add('paged');
for(let k=0;;k++){const s=window.getComputedStyle(R),g=parseFloat(s.rowGap)||0,h=R.clientHeight-parseFloat(s.paddingTop)-parseFloat(s.paddingBottom),n=Math.max(1,s.gridTemplateColumns.split(' ').filter((x)=>parseFloat(x)>0).length);
const L=[];let cur=[],used=0,top=0;
for(let i=0;i<c.length;i+=n){const row=c.slice(i,i+n),rh=Math.max(...row.map((e)=>e.offsetHeight));top=Math.max(top,rh);if(cur.length&&used+g+rh>h){L.push(cur);cur=[];used=0;}used+=(cur.length?g:0)+rh;cur.push(...row);}
L.push(cur);const f=parseFloat(window.getComputedStyle(b).fontSize);
if(top>h&&f>13&&k<8){z.fontSize=f*0.92+'px';continue;}
lh=R.clientHeight;R.style.setProperty('--h',h+'px');if(L.length>1)R.style.gridTemplateColumns='repeat('+n+',minmax(0,1fr))';return L;}}
function show(){if(gone)return;const P=$('page');let L=[];
for(let k=0;k<2;k++){L=pages();pg%=L.length;P.hidden=L.length<2;P.textContent=T.page.replace('#',pg+1).replace('%',L.length);
for(let i=0;L.length>1&&i<L.length;i++){const o=document.createElement('span');o.className=i===pg?'dot on':'dot';o.setAttribute('aria-hidden','true');P.append(o);}
if($('rooms').clientHeight===lh)break;}
for(const e of L.flat())e.hidden=!L[pg].includes(e);}
const ti=setInterval(tick,1000),pi=setInterval(()=>{pg++;show();},Number(d.turn)*1000);tick();show();window.addEventListener('resize',show);timer=setTimeout(load,w);connect();
document.addEventListener('visibilitychange',()=>{if(!document.hidden){load();if(!es)connect();}});})();`;

const STYLE = `:root{color-scheme:light dark;--bg:#fff;--fg:#111;--mut:#555;--free:#0a7d33;--busy:#b42318;--warn:#8a5a00;--line:#ddd}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#f0f3f6;--mut:#9aa4ae;--free:#4ade80;--busy:#f87171;--warn:#fbbf24;--line:#30363d}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:400 clamp(16px,min(1.9vw,2.9vh),28px)/1.35 system-ui,sans-serif}
body.paged{height:100vh;height:100dvh;display:flex;flex-direction:column;overflow:hidden}
header{display:flex;justify-content:space-between;align-items:baseline;gap:1em;padding:.5em 1em;border-bottom:2px solid var(--line)}
h1{font-size:1.3em;margin:0}#clock{font-size:2em;font-weight:700;font-variant-numeric:tabular-nums;line-height:1.1}#date,#fresh,#page{color:var(--mut);font-size:.8em}#fresh.offline{color:var(--busy);font-weight:700}
#page{margin:.2em 0 0}.dot{display:inline-block;width:.6em;height:.6em;border-radius:50%;background:var(--line);margin-left:.4em}.dot.on{background:var(--fg)}
#rooms{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,12.5em),1fr));align-items:start;gap:1em;padding:1em}
.paged #rooms{flex:1 1 auto;min-height:0;overflow:hidden;align-content:start}.paged .room{max-height:var(--h);overflow:hidden}.room[hidden]{display:none}
.room{border:2px solid var(--line);border-radius:.5em;padding:.6em .8em}h2{margin:0 0 .2em;font-size:1.4em}
.now{font-size:1.5em;font-weight:700;margin:.1em 0}.n-free{color:var(--free)}.n-in-use,.n-closed{color:var(--busy)}.n-maintenance{color:var(--warn)}.n-none{color:var(--mut)}
.next{margin:.2em 0 .5em}h3{font-size:1em;margin:.5em 0 .2em}.date{color:var(--mut);font-weight:400}
.strip{list-style:none;margin:0;padding:0;columns:11em;column-gap:1em}.slot{display:flex;gap:.6em;font-size:.85em;break-inside:avoid;padding:.05em 0}.t{font-variant-numeric:tabular-nums;min-width:5.8em;flex-shrink:0}
.s-free .st{color:var(--free);font-weight:700}.s-taken .st,.s-in-use .st{color:var(--busy)}.s-closed .st,.s-maintenance .st{color:var(--warn)}.s-past,.s-unavailable{color:var(--mut)}
.note{color:var(--mut)}.gone{display:grid;place-items:center;min-height:90vh;font-size:2em;text-align:center;padding:1em}`;

/** The whole page: server-rendered, readable without the script; the script keeps it current. */
export function renderDisplayPage(args: { screen: DisplayScreen; locale: DisplayLocale; t: DisplayTranslate; nonce: string; everyS: number; lastEventId: number; version: string }): string {
  const { screen, locale, t, nonce } = args;
  const texts = escapeHtml(JSON.stringify(scriptTexts(t)));
  const refreshed = screen.refreshedAt ? Date.parse(screen.refreshedAt) : 0;
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer"><title>${escapeHtml(screen.name)}</title>` +
    `<style nonce="${nonce}">${STYLE}</style></head>` +
    `<body data-tz="${escapeHtml(screen.timeZone)}" data-lang="${TAG[locale]}" data-refreshed="${refreshed}" data-every="${args.everyS}" data-turn="${DISPLAY_PAGE_S}" data-event="${args.lastEventId}" data-v="${escapeHtml(args.version)}" data-texts="${texts}">` +
    `<header><div><h1>${escapeHtml(screen.name)}</h1><p id="page" hidden></p></div><div><div id="clock">${escapeHtml(timeOf(screen.nowMs, screen.timeZone, locale))}</div><div id="date">${escapeHtml(new Intl.DateTimeFormat(TAG[locale], { timeZone: screen.timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(screen.nowMs))}</div><div id="fresh" role="status"></div></div></header>` +
    `<main id="rooms" aria-live="polite">${renderRooms(screen, locale, t)}</main>` +
    `<script nonce="${nonce}">${DISPLAY_SCRIPT}</script></body></html>`
  );
}

/** A display that was switched off (revoked, or its address rotated away), or never existed. */
export function renderGonePage(args: { text: string; locale: DisplayLocale; nonce: string }): string {
  return (
    `<!doctype html><html lang="${args.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(args.text)}</title><style nonce="${args.nonce}">${STYLE}</style></head>` +
    `<body><main class="gone"><p>${escapeHtml(args.text)}</p></main></body></html>`
  );
}
