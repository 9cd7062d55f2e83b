/** The tool's LTI 1.3 addresses (what a course platform's registration asks for). */
export const LTI_PATHS = {
  login: '/api/lti/login',
  launch: '/api/lti/launch',
  jwks: '/api/lti/jwks',
  deepLink: '/api/lti/deep-link',
} as const;

/** The form posts a course platform's browser sends us (exempt from the Origin check, origin.ts). */
export const LTI_FORM_POST_PATHS: ReadonlySet<string> = new Set([LTI_PATHS.login, LTI_PATHS.launch, LTI_PATHS.deepLink]);
