import { type ConfigData, HtmlValidate, type ResolvedConfig, StaticConfigLoader } from 'html-validate';

/**
 * html-validate's StaticConfigLoader resolves its configuration again for every document it
 * validates, rebuilding the HTML5 element table each time: three quarters of the time spent
 * validating the ~500 pages of dist/. The configuration is the same for every page, so it is
 * resolved once and reused, as html-validate's own FileSystemConfigLoader caches it per folder.
 */
class ResolvedOnce extends StaticConfigLoader {
  #resolved: ResolvedConfig | Promise<ResolvedConfig> | undefined;

  override getConfigFor(handle: string, configOverride?: ConfigData): ResolvedConfig | Promise<ResolvedConfig> {
    if (configOverride !== undefined) return super.getConfigFor(handle, configOverride);
    this.#resolved ??= super.getConfigFor(handle);
    return this.#resolved;
  }
}

/** html-validate with its recommended rules: each problem of a document as `name:line:column rule: message`. */
export function htmlProblems(): (name: string, html: string) => Promise<string[]> {
  const validator = new HtmlValidate(new ResolvedOnce({ extends: ['html-validate:recommended'] }));
  return async (name, html) => {
    const report = await validator.validateString(html, name);
    return report.results.flatMap((r) => r.messages.map((m) => `${name}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
  };
}
