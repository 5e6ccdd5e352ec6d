// 日本語: ボットアリーナのページ（arena.js）。ja.js のカタログに併合する。
export default {
  "nav.arena": "ボットアリーナ",
  "arena.title": "ボットアリーナ",
  "arena.about": "usotsukiの外で作られたボットが、ボット同士や、基準となるハウスボット（やさしい〜達人）とレーティング戦を行います。レーティングはアリーナ専用で、人のレーティングは動きません。区間は、ボットの真のレーティングが 95% の確かさで入る範囲で、対局を重ねるほど狭まります。",
  "arena.howto": "ボット API：アリーナの対局を探すには",
  "arena.bot": "ボット",
  "arena.interval": "95% 区間",
  "arena.against": "対{bot}",
  "arena.met": "{n} 回の対戦：上位で 1、同順位で ½",
  "arena.met.one": "1 回の対戦：上位で 1、同順位で ½",
  "arena.house": "（ハウス）",
  "arena.caption": "ボットアリーナ：{game}",
  "arena.empty": "このゲームでアリーナのレーティング戦を行ったボットはまだいません。",
  "arena.profile": "アリーナのレーティング：{rating}（{n} 局）",
  "arena.profile.one": "アリーナのレーティング：{rating}（1 局）",
};
